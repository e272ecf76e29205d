package dev.mcptasks.ports;

import java.time.Duration;
import java.time.Instant;

/**
 * Time for the runtime: wall time for durable timestamps, a monotonic reading for local deadlines, and timers on
 * the same time line, so tests drive leases, renewals and drains with a manual clock instead of sleeping.
 */
public interface Clock {
    /** Wall time, at millisecond precision (what repositories store). */
    Instant now();

    /** A monotonic reading in nanoseconds (only differences are meaningful); never goes backwards. */
    long nanoTime();

    /**
     * Runs {@code action} once, {@code delay} from now on this clock's time line. Actions must be short and must
     * not block: they typically hand work to an executor.
     */
    Timer schedule(Duration delay, Runnable action);

    /** A scheduled action that has not run yet can be cancelled. */
    interface Timer {
        /** Cancels the action; returns false when it already ran or was cancelled. */
        boolean cancel();
    }
}
