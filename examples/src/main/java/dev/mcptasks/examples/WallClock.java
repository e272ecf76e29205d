package dev.mcptasks.examples;

import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The real time line for the example's worker: wall time, the monotonic clock, and timers on one daemon thread. */
final class WallClock implements Clock, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WallClock.class);

    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "example-clock");
        thread.setDaemon(true);
        return thread;
    });

    WallClock() {
        // the runtime cancels most renewal timers it sets: let them go at once rather than when due
        scheduler.setRemoveOnCancelPolicy(true);
    }

    /** Milliseconds: the precision the store keeps, so a time read back equals the time written. */
    @Override
    public Instant now() {
        return Instant.ofEpochMilli(System.currentTimeMillis());
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /**
     * The runtime relies on a {@code cancel()} that answers true meaning the action never runs (a cancelled
     * renewal must not fire late). A future cannot promise that once its action has started, so firing and cancelling
     * race for one flag instead, and only the winner acts.
     */
    @Override
    public Timer schedule(Duration delay, Runnable action) {
        AtomicBoolean armed = new AtomicBoolean(true);
        ScheduledFuture<?> due = scheduler.schedule(() -> {
            if (armed.compareAndSet(true, false)) {
                runLogged(action);
            }
        }, Math.max(0L, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> {
            boolean cancelled = armed.compareAndSet(true, false);
            if (cancelled) {
                due.cancel(false);
            }
            return cancelled;
        };
    }

    private static void runLogged(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // the scheduler would keep the failure inside a future nobody reads
            LOG.error("timer action failed", e);
        }
    }

    /** Ends the timer thread: timers not yet due never run. */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
