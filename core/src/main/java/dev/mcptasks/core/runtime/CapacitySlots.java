package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.DomainException;
import java.util.Objects;

/**
 * The worker's control-call slots. A claim scan first reserves what is free, atomically, so concurrent scans can
 * never admit more calls than there are slots; the scan hands back what it did not use. A slot of an admitted call
 * is released only when the whole operation settled, however long an uncooperative remote call takes. Listeners
 * hear of every release, told apart: a settled operation's slot, or a reservation given back unused (work-conserving
 * scans continue when slots come back).
 */
final class CapacitySlots {
    private final int capacity;
    private int inUse;
    private volatile Runnable released = () -> { };
    private volatile Runnable givenBack = () -> { };

    CapacitySlots(int capacity) {
        if (capacity < 1) {
            throw new DomainException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Reserves up to {@code wanted} free slots and returns how many it got (possibly 0). */
    synchronized int reserve(int wanted) {
        int granted = Math.max(0, Math.min(wanted, capacity - inUse));
        inUse += granted;
        return granted;
    }

    /** Frees the slots of {@code count} settled operations. */
    void release(int count) {
        if (free(count)) {
            released.run(); // outside the lock: the listener reads the free count and may ask for a scan
        }
    }

    /** Frees {@code count} reserved slots that were never used (a scan that found fewer rows, a create refused). */
    void giveBack(int count) {
        if (free(count)) {
            givenBack.run();
        }
    }

    private boolean free(int count) {
        synchronized (this) {
            if (count < 0 || count > inUse) {
                throw new IllegalStateException("releasing " + count + " slots but only " + inUse + " are in use");
            }
            inUse -= count;
        }
        return count > 0;
    }

    /**
     * Calls {@code settled} after every release of at least one settled operation's slot, and {@code unused} after
     * reservations are given back, on the releasing thread; neither may block.
     */
    void whenReleased(Runnable settled, Runnable unused) {
        this.released = Objects.requireNonNull(settled, "settled");
        this.givenBack = Objects.requireNonNull(unused, "unused");
    }

    synchronized int inUse() {
        return inUse;
    }

    synchronized int free() {
        return capacity - inUse;
    }

    int capacity() {
        return capacity;
    }
}
