package dev.mcptasks.core.runtime;

import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one direct call's progress notifications into status-message writes: at most one write per
 * {@link #INTERVAL}, the latest message wins (older ones that arrived meanwhile are dropped, never written late), and
 * writes never overlap. {@link #close} (called when the call returned, before the task's terminal write) stops every
 * write not yet started. A write already running may still reach the store after that; the write itself must be
 * fenced on a nonterminal row so that it can never land after the terminal write. Writes run on the executor, never
 * on the transport thread that delivered the progress.
 */
final class ProgressThrottle {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressThrottle.class);
    static final Duration INTERVAL = Duration.ofSeconds(1);

    /** Stores the status message under the claim (fenced); false when the store refused it. */
    @FunctionalInterface
    interface Write {
        boolean write(String statusMessage);
    }

    private final Clock clock;
    private final Executor executor;
    private final Write write;
    /** Guarded by this: the latest message not yet written, and the write or timer that will take it. */
    private String pending;
    private boolean writing;
    private Clock.Timer timer;
    private boolean wroteBefore;
    private long lastWriteNanos;
    private boolean closed;

    ProgressThrottle(Clock clock, Executor executor, Write write) {
        this.clock = clock;
        this.executor = executor;
        this.write = write;
    }

    /** The server reported {@code statusMessage}; called on transport threads, returns at once. */
    void offer(String statusMessage) {
        synchronized (this) {
            if (closed) {
                return;
            }
            pending = statusMessage;
            if (writing || timer != null) {
                return; // the write in flight, or the timer, takes the latest message when its turn comes
            }
            if (!startOrWait()) {
                return;
            }
        }
        executor.execute(this::drain);
    }

    /** No write starts after this; a message still waiting is dropped. */
    void close() {
        Clock.Timer waiting;
        synchronized (this) {
            closed = true;
            pending = null;
            waiting = timer;
            timer = null;
        }
        if (waiting != null) {
            waiting.cancel();
        }
    }

    /** Under the lock: true to write now (marked writing), false when a timer was set for the next slot. */
    private boolean startOrWait() {
        long wait = wroteBefore ? lastWriteNanos + INTERVAL.toNanos() - clock.nanoTime() : 0;
        if (wait > 0) {
            timer = clock.schedule(Duration.ofNanos(wait), this::due);
            return false;
        }
        writing = true;
        return true;
    }

    private void due() {
        synchronized (this) {
            timer = null;
            if (closed || writing || pending == null || !startOrWait()) {
                return;
            }
        }
        executor.execute(this::drain);
    }

    private void drain() {
        String message;
        synchronized (this) {
            message = pending;
            pending = null;
            if (closed || message == null) {
                writing = false;
                return;
            }
            wroteBefore = true;
            lastWriteNanos = clock.nanoTime();
        }
        try {
            if (!write.write(message)) {
                LOG.debug("a progress status message was refused by the store (the claim ended meanwhile)");
            }
        } catch (RuntimeException e) {
            // a progress message is a hint: a failed write is not retried, the next progress brings a newer one
            LOG.info("storing a progress status message failed: {}", e.toString());
        }
        synchronized (this) {
            writing = false;
            if (closed || pending == null || !startOrWait()) {
                return;
            }
        }
        executor.execute(this::drain);
    }
}
