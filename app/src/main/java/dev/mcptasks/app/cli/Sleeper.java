package dev.mcptasks.app.cli;

import java.time.Duration;

/** Waits between repository polls ({@code result --wait}); tests substitute one that moves a manual clock. */
@FunctionalInterface
public interface Sleeper {
    Sleeper REAL = duration -> Thread.sleep(Math.max(1, duration.toMillis()));

    void sleep(Duration duration) throws InterruptedException;
}
