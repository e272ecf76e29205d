package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Lets a result write ({@link SubmitWrite}, {@link OutcomeWrite}) take the delivery of the attention event it records,
 * in the same statement: the outbox then leaves the write dispatched to {@code owner} under a notification lease of
 * {@code lease} with {@code token}, frozen at the new version with attempt 1, exactly as
 * {@link TaskRepository#claimNotificationsDispatched(NotificationClaimRequest)} would have left it had it claimed the
 * row right after the write. The write takes it only when it records a new event (its fingerprint differs from the
 * stored one) on an idle outbox (status none or delivered) whose event version is still {@code priorEventVersion};
 * otherwise the event is recorded as without a take, and the scan delivers it.
 *
 * <p>A worker offers a take only when the row it claimed had an idle outbox at that version: no dispatcher touches
 * such an outbox (nothing is due on it and no notification lease is held), and under the control claim only the
 * claim's own last write records an event, so the store takes it whenever the write applies and its event is new.
 *
 * @param priorEventVersion the row's event version when the worker claimed it (the event becomes this + 1)
 */
public record DeliveryTake(WorkerId owner, ClaimToken token, Duration lease, long priorEventVersion) {
    public DeliveryTake {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(lease, "lease");
    }

    /**
     * The delivery a write of task {@code id} took with this, recording {@code event}: the new version with attempt 1,
     * leased until {@code expiresAt} (the store keeps its own expiry; the owner and token are what fence it).
     */
    public NotificationClaim claimOf(TaskId id, AttentionEvent event, Instant expiresAt) {
        return new NotificationClaim(id, owner, token, expiresAt, priorEventVersion + 1, event.payloadJson(), 1);
    }
}
