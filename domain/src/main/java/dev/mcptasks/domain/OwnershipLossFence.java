package dev.mcptasks.domain;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The task-local, in-memory flag set when a worker learns it may no longer own its claim (renewal rejected, failed
 * or timed out). Once set it stays set: nothing more from that claim may be persisted, so a driver that swallows
 * cancellation and returns later cannot save a snapshot or record a retry. The first cause is kept.
 */
public final class OwnershipLossFence {
    private final AtomicReference<String> cause = new AtomicReference<>();

    /** Marks the claim as lost; returns true only for the call that set it first. */
    public boolean markLost(String reason) {
        return cause.compareAndSet(null, reason == null ? "ownership lost" : reason);
    }

    public boolean isLost() {
        return cause.get() != null;
    }

    public Optional<String> cause() {
        return Optional.ofNullable(cause.get());
    }

    /** Throws when the claim is lost; call right before every write made on behalf of the claim. */
    public void ensureOwned() {
        String reason = cause.get();
        if (reason != null) {
            throw new OwnershipLostException(reason);
        }
    }

    /** Thrown by {@link #ensureOwned()}: the operation must stop without persisting anything. */
    public static final class OwnershipLostException extends IllegalStateException {
        public OwnershipLostException(String reason) {
            super("claim ownership lost: " + reason);
        }
    }
}
