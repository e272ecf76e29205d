package dev.mcptasks.adapters.gateway;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gateway-wide bound on what ended 2025 answer streams keep for a late {@code Last-Event-ID}. A stream that ended
 * keeps its events, its answer included, so a client whose connection dropped can still read it; an answer can be
 * megabytes, and a client that left never comes back for it. Kept streams are charged here, and past the budget the
 * oldest let go of their events: the answer lives on in the store (the client asks again, {@code tasks/result}),
 * not once per abandoned stream in the heap.
 *
 * <p>Charging happens outside any stream's lock, and letting go takes only that stream's own lock, so two streams
 * ending at once cannot deadlock on each other.
 */
final class RetainedAnswers {
    /** 16 MiB of kept events across every session: a few large answers, or thousands of small ones. */
    static final long DEFAULT_BUDGET = 16L * 1024 * 1024;

    private final long budget;
    private final AtomicLong kept = new AtomicLong();
    private final Queue<EventStream> oldestFirst = new ConcurrentLinkedQueue<>();

    RetainedAnswers(long budget) {
        if (budget < 0) {
            throw new IllegalArgumentException("budget must not be negative: " + budget);
        }
        this.budget = budget;
    }

    /** An ended stream keeps {@code chars} of events; the oldest kept streams let go while over budget. */
    void ended(EventStream stream, long chars) {
        oldestFirst.add(stream);
        kept.addAndGet(chars);
        while (kept.get() > budget) {
            EventStream oldest = oldestFirst.poll();
            if (oldest == null) {
                return;
            }
            kept.addAndGet(-oldest.letGo());
        }
    }

    /** The stream is forgotten (its session forgot it, or ended): what it kept is no longer charged. */
    void forgotten(EventStream stream) {
        if (oldestFirst.remove(stream)) {
            kept.addAndGet(-stream.letGo());
        }
    }

    /** Characters kept by ended streams now. */
    long kept() {
        return kept.get();
    }
}
