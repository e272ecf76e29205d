package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.AttentionEvent;
import java.time.Instant;
import java.util.Objects;

/**
 * A failed control call: the claim is released and the row is due again after a backoff counted from the failure.
 *
 * @param error what went wrong (stored capped)
 * @param failedAt when the call completed with the failure
 * @param nextControlAt failedAt + backoff
 * @param clearSubmitAttempt true when a submit failed before anything was sent, so the next attempt is not taken
 *     for a possibly-created task
 * @param degradedEvent a tracking-degraded event to record, or null
 */
public record FailureWrite(String error, Instant failedAt, Instant nextControlAt, boolean clearSubmitAttempt,
        AttentionEvent degradedEvent) {
    public FailureWrite {
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(failedAt, "failedAt");
        Objects.requireNonNull(nextControlAt, "nextControlAt");
    }
}
