package dev.mcptasks.testkit.faults;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A one-shot barrier in front of a repository operation: callers block in it until the test releases it; the test
 * can await that a caller has arrived. Once released, every later caller passes straight through.
 */
public final class Gate {
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger arrivals = new AtomicInteger();
    private final Object arrivalLock = new Object();

    /** Releases every blocked caller and opens the gate for good. */
    public void release() {
        released.countDown();
    }

    public boolean isReleased() {
        return released.getCount() == 0;
    }

    /** How many callers have arrived at the gate so far. */
    public int arrivals() {
        return arrivals.get();
    }

    /** Waits until at least {@code count} callers have arrived; false on timeout. */
    public boolean awaitArrivals(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (arrivalLock) {
            while (arrivals.get() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                arrivalLock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /** Called by the decorated operation: blocks until released (an interrupt stops the wait and is kept). */
    void pass() {
        synchronized (arrivalLock) {
            arrivals.incrementAndGet();
            arrivalLock.notifyAll();
        }
        try {
            if (!released.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("a test gate was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while blocked in a test gate", e);
        }
    }
}
