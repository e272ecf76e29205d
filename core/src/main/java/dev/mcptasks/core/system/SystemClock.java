package dev.mcptasks.core.system;

import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real clock: wall time from {@link System#currentTimeMillis()} (already at the millisecond precision the
 * repositories store), {@link System#nanoTime()} for local deadlines, and timers on one daemon scheduler thread.
 */
public final class SystemClock implements Clock, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SystemClock.class);

    private final ScheduledThreadPoolExecutor timers;

    public SystemClock() {
        timers = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-timer");
            thread.setDaemon(true);
            return thread;
        });
        // Cancelled renewal timers are the common case: drop them at once instead of when they would have fired.
        timers.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Instant now() {
        return Instant.ofEpochMilli(System.currentTimeMillis());
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Timer schedule(Duration delay, Runnable action) {
        OneShot timer = new OneShot(action);
        timer.future = timers.schedule(timer::fire, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return timer;
    }

    /**
     * One timer. Firing and cancelling race for the same state change, so exactly one of them wins: a cancel that
     * returns true guarantees the action never runs, and a timer whose action started can no longer be cancelled
     * (a future alone would still report a running action as cancellable).
     */
    private static final class OneShot implements Timer {
        private final AtomicBoolean settled = new AtomicBoolean();
        private final Runnable action;
        private volatile ScheduledFuture<?> future;

        OneShot(Runnable action) {
            this.action = action;
        }

        void fire() {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            try {
                action.run();
            } catch (RuntimeException e) {
                // A scheduled future would swallow the failure silently; the log is the only place it can surface.
                LOG.error("a timer action failed", e);
            } catch (Error e) {
                // the future would swallow this too, and the timer thread would go on without, say, a lease's next
                // renewal: the thread's uncaught-exception policy decides (a worker process stops and exits 70)
                Thread thread = Thread.currentThread();
                thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
            }
        }

        @Override
        public boolean cancel() {
            if (!settled.compareAndSet(false, true)) {
                return false;
            }
            ScheduledFuture<?> scheduled = future;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
            return true;
        }
    }

    /** Stops the timer thread; timers not yet fired never fire. */
    @Override
    public void close() {
        timers.shutdownNow();
    }
}
