package dev.mcptasks.postgres;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRecord;

/** Converts stored rows to {@link TaskRecord}s. */
final class TaskRows {
    private TaskRows() {}

    static TaskRecord toRecord(TaskRow row) {
        return new TaskRecord(
                TaskId.of(row.id),
                new TaskRecord.Definition(row.serverName, row.toolName, row.arguments, row.driver, row.requestedTtlMs,
                        row.createdAt),
                new TaskRecord.State(TaskStatus.fromWire(row.status), row.statusMessage, row.result,
                        row.resultTruncated, row.error, row.errorCode, row.inputRequired, row.remoteTaskId,
                        row.remoteTtlMs, row.protocolVersion, worker(row.endpointOwner), worker(row.createdBy),
                        row.updatedAt, row.completedAt, row.inputResponses, row.requestState),
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
