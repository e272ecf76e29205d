package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditRecord;
import java.time.Instant;

/** One row of the audit table. */
record AuditRow(long seq, Instant at, String principal, String channel, String action, String taskId, String detail) {
    AuditRecord toRecord() {
        return new AuditRecord(seq, at, principal, AuditChannel.fromWire(channel), AuditAction.fromWire(action),
                taskId == null ? null : TaskId.of(taskId), detail);
    }
}
