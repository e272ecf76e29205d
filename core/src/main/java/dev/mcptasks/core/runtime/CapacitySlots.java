package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.DomainException;
import java.util.Objects;

/**
 * The worker's control-call slots. A claim scan first reserves what is free, atomically, so concurrent scans can
 * never admit more calls than there are slots; the scan hands back what it did not use. A slot of an admitted call
 * is released only when the whole operation settled, however long an uncooperative remote call takes. A listener
 * hears of every release (work-conserving scans continue when slots come back).
 */
final class CapacitySlots {
    private final int capacity;
    private int inUse;
    private volatile Runnable released = () -> { };

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

    void release(int count) {
        synchronized (this) {
            if (count < 0 || count > inUse) {
                throw new IllegalStateException("releasing " + count + " slots but only " + inUse + " are in use");
            }
            inUse -= count;
        }
        if (count > 0) {
            released.run(); // outside the lock: the listener reads the free count and may ask for a scan
        }
    }

    /** Calls {@code listener} after every release of at least one slot, on the releasing thread; it must not block. */
    void whenReleased(Runnable listener) {
        this.released = Objects.requireNonNull(listener, "listener");
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
