package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A clock that moves only when a test says so. Timers fire, in due order, on the thread that advances the clock.
 * The wall time can step backwards ({@link #stepWallClock}) to model a clock correction; the monotonic reading and
 * the timers never do.
 */
public final class ManualClock implements Clock {
    private Instant wall;
    private long nanos;
    private long sequence;
    private final PriorityQueue<Scheduled> timers = new PriorityQueue<>();

    public ManualClock(Instant start) {
        this.wall = start.truncatedTo(ChronoUnit.MILLIS);
    }

    public ManualClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Override
    public synchronized Instant now() {
        return wall;
    }

    @Override
    public synchronized long nanoTime() {
        return nanos;
    }

    @Override
    public synchronized Timer schedule(Duration delay, Runnable action) {
        Scheduled timer = new Scheduled(nanos + Math.max(0, delay.toNanos()), sequence++, action);
        timers.add(timer);
        return timer;
    }

    /**
     * Moves both clocks forward, firing every timer that falls due on the way at its own time (so a timer that
     * schedules another within the window sees that one fire too).
     */
    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("use stepWallClock to move the wall clock backwards");
        }
        long target;
        synchronized (this) {
            target = nanos + step.toNanos();
        }
        while (true) {
            Scheduled next;
            synchronized (this) {
                next = timers.peek();
                if (next == null || next.dueNanos > target) {
                    moveTo(target);
                    return;
                }
                timers.poll();
                moveTo(Math.max(nanos, next.dueNanos));
                if (next.cancelled) {
                    continue;
                }
                next.fired = true;
            }
            next.action.run();
        }
    }

    /** Moves the wall clock alone (backwards for a clock correction); monotonic time and timers are untouched. */
    public synchronized void stepWallClock(Duration step) {
        wall = wall.plus(step);
    }

    /** Timers not yet fired nor cancelled. */
    public synchronized int pendingTimers() {
        int count = 0;
        for (Scheduled timer : timers) {
            if (!timer.cancelled) {
                count++;
            }
        }
        return count;
    }

    /** Due times of pending timers, relative to now, for diagnostics. */
    public synchronized List<Duration> pendingDelays() {
        List<Duration> delays = new ArrayList<>();
        for (Scheduled timer : timers) {
            if (!timer.cancelled) {
                delays.add(Duration.ofNanos(timer.dueNanos - nanos));
            }
        }
        delays.sort(null);
        return delays;
    }

    private void moveTo(long targetNanos) {
        long delta = targetNanos - nanos;
        if (delta > 0) {
            nanos = targetNanos;
            wall = wall.plusNanos(delta).truncatedTo(ChronoUnit.MILLIS);
        }
    }

    private final class Scheduled implements Timer, Comparable<Scheduled> {
        final long dueNanos;
        final long order;
        final Runnable action;
        boolean cancelled;
        boolean fired;

        Scheduled(long dueNanos, long order, Runnable action) {
            this.dueNanos = dueNanos;
            this.order = order;
            this.action = action;
        }

        @Override
        public boolean cancel() {
            synchronized (ManualClock.this) {
                if (cancelled || fired) {
                    return false;
                }
                cancelled = true;
                return true;
            }
        }

        @Override
        public int compareTo(Scheduled other) {
            int byTime = Long.compare(dueNanos, other.dueNanos);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
