package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.StoredSnapshot;
import java.time.Instant;
import java.util.Objects;

/**
 * A snapshot to store under a control claim: a poll result, a cancel result, or a terminal outcome decided
 * locally (lost task, protocol error, refused or unknown submission).
 *
 * @param snapshot the normalized snapshot
 * @param remoteTtlMs the server's ttl if reported, else null (keeps the stored value)
 * @param nextControlAt next due time of the phase (null when terminal)
 * @param event the attention event of the snapshot, or null
 * @param deliveredInputResponsesJson the pending answers this claim delivered to the server: the stored
 *     {@code inputResponsesJson} is cleared only if it still equals this (answers added meanwhile stay pending), else
 *     null (pending answers untouched)
 * @param take the delivery of {@code event} the write takes for its worker, or null (see {@link DeliveryTake})
 */
public record OutcomeWrite(StoredSnapshot snapshot, Long remoteTtlMs, Instant nextControlAt, AttentionEvent event,
        String deliveredInputResponsesJson, DeliveryTake take) {
    public OutcomeWrite {
        Objects.requireNonNull(snapshot, "snapshot");
    }

    public OutcomeWrite(StoredSnapshot snapshot, Long remoteTtlMs, Instant nextControlAt, AttentionEvent event,
            String deliveredInputResponsesJson) {
        this(snapshot, remoteTtlMs, nextControlAt, event, deliveredInputResponsesJson, null);
    }

    /** This write taking the delivery of its event with {@code take} (null: taking none). */
    public OutcomeWrite withTake(DeliveryTake take) {
        return new OutcomeWrite(snapshot, remoteTtlMs, nextControlAt, event, deliveredInputResponsesJson, take);
    }

    public OutcomeWrite(StoredSnapshot snapshot, Long remoteTtlMs, Instant nextControlAt, AttentionEvent event) {
        this(snapshot, remoteTtlMs, nextControlAt, event, null, null);
    }
}
