package dev.mcptasks.core.runtime;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A cached pool that knows when nothing it was given is queued or running. With a manual clock that is not advanced
 * and drivers and sinks that answer at once, every asynchronous step of a worker (passes, operations, deliveries)
 * runs here, so "quiet" means the worker has done everything it is going to do by itself.
 */
final class QuietExecutor implements Executor, AutoCloseable {
    private final ExecutorService pool = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "quiet-executor");
        thread.setDaemon(true);
        return thread;
    });
    /** Tasks handed over and not yet ended; guarded by this. */
    private int outstanding;

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            outstanding++;
        }
        try {
            pool.execute(() -> {
                try {
                    task.run();
                } finally {
                    ended();
                }
            });
        } catch (RuntimeException e) {
            ended();
            throw e;
        }
    }

    /**
     * Waits until nothing is queued or running. A task counts from the moment it is handed over, so one that hands
     * over another before it ends keeps the executor busy throughout.
     */
    synchronized void awaitQuiet(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (outstanding > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(outstanding + " tasks still queued or running after " + timeout);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    synchronized boolean isQuiet() {
        return outstanding == 0;
    }

    private synchronized void ended() {
        outstanding--;
        if (outstanding == 0) {
            notifyAll();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
