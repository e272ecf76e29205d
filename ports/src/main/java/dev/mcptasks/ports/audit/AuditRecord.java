package dev.mcptasks.ports.audit;

import dev.mcptasks.domain.TaskId;
import java.time.Instant;
import java.util.Objects;

/** A recorded action: the entry, its sequence number (the order of recording) and the store's time of it. */
public record AuditRecord(long sequence, Instant at, String principal, AuditChannel channel, AuditAction action,
        TaskId taskId, String detail) {
    public AuditRecord {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(action, "action");
    }
}
