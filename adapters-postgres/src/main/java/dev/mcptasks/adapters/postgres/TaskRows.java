package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.trace.TraceContext;
import java.time.Instant;

/** Converts stored rows to {@link TaskRecord}s. */
final class TaskRows {
    private TaskRows() {}

    /**
     * The row {@code insertTask} writes: the new task's definition, pending and due at {@code now}, every other
     * column at its default of the schema (V1 to V3). The contract tests compare it with the row read back.
     */
    static TaskRow created(NewTask task, Instant now) {
        TaskRow row = new TaskRow();
        row.id = task.id().value();
        row.serverName = task.serverName();
        row.toolName = task.toolName();
        row.arguments = task.argumentsJson();
        row.driver = task.driver();
        row.requestedTtlMs = task.requestedTtlMs();
        row.createdAt = now;
        row.principal = task.principal();
        if (task.trace() != null) {
            row.traceparent = task.trace().traceparent();
            row.tracestate = task.trace().tracestate();
        }
        row.status = TaskStatus.PENDING.wireName();
        row.updatedAt = now;
        row.nextControlAt = now;
        row.notificationStatus = NotificationStatus.NONE.wireName();
        CreatedLease lease = CreatedLease.of(task.claim(), now);
        row.leasePhase = lease.phase();
        row.leaseOwner = lease.owner();
        row.leaseToken = lease.token();
        row.leaseExpiresAt = lease.expiresAt();
        row.submitAttemptCount = lease.attempts();
        row.submitAttemptedAt = lease.attemptedAt();
        return row;
    }

    static TaskRecord toRecord(TaskRow row) {
        return new TaskRecord(
                TaskId.of(row.id),
                new TaskRecord.Definition(row.serverName, row.toolName, row.arguments, row.driver, row.requestedTtlMs,
                        row.createdAt, row.principal, TraceContext.parse(row.traceparent, row.tracestate)),
                new TaskRecord.State(TaskStatus.fromWire(row.status), row.statusMessage, row.result,
                        row.resultTruncated, row.error, row.errorCode, row.inputRequired, row.remoteTaskId,
                        row.remoteTtlMs, row.protocolVersion, worker(row.endpointOwner), worker(row.createdBy),
                        row.updatedAt, row.completedAt, row.inputResponses, row.requestState,
                        row.endpointSession),
                new TaskRecord.Control(row.nextControlAt, row.lastPolledAt, row.submitAttemptCount,
                        row.pollAttemptCount, row.cancelAttemptCount, row.consecutiveErrorCount, row.lastPollError,
                        row.lastCancelError, row.cancelRequestedAt, row.submitAttemptedAt),
                row.leaseOwner == null ? TaskRecord.Lease.NONE
                        : new TaskRecord.Lease(ClaimPhase.fromWire(row.leasePhase), worker(row.leaseOwner),
                                token(row.leaseToken), row.leaseExpiresAt),
                new TaskRecord.Outbox(NotificationStatus.fromWire(row.notificationStatus), row.eventFingerprint,
                        row.eventPayload, row.eventVersion, row.notifiedVersion, row.dispatchVersion,
                        row.dispatchAttempt, row.dispatchEvent, row.notificationAttemptCount, row.notificationError,
                        row.nextNotificationAt, worker(row.notificationLeaseOwner), token(row.notificationLeaseToken),
                        row.notificationLeaseExpiresAt));
    }

    private static WorkerId worker(String value) {
        return value == null ? null : WorkerId.of(value);
    }

    private static ClaimToken token(String value) {
        return value == null ? null : ClaimToken.of(value);
    }
}
