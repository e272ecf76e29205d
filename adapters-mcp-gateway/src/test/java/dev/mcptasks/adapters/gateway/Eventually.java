package dev.mcptasks.adapters.gateway;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polling with a deadline for tests with real threads: takes {@code step} until the condition holds, never sleeps. */
final class Eventually {
    private Eventually() {}

    static void until(String what, Duration deadline, BooleanSupplier condition, Runnable step) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline + ": " + what);
            }
            step.run();
            Thread.yield();
        }
    }
}
