package dev.mcptasks.sqlite;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;

/**
 * One {@code tasks} row as MyBatis maps it (column names in camel case; MyBatis writes the fields reflectively), turned
 * into a {@link TaskRecord}.
 */
final class TaskRow {
    private String id;
    private String serverName;
    private String toolName;
    private String arguments;
    private String driver;
    private Long requestedTtlMs;
    private long createdAt;
    private String status;
    private String statusMessage;
    private String result;
    private boolean resultTruncated;
    private String error;
    private String errorCode;
    private String inputRequired;
    private String remoteTaskId;
    private Long remoteTtlMs;
    private String protocolVersion;
    private String endpointOwner;
    private String createdBy;
    private long updatedAt;
    private Long completedAt;
    private String inputResponses;
    private String requestState;
    private Long nextControlAt;
    private Long lastPolledAt;
    private int submitAttemptCount;
    private int pollAttemptCount;
    private int cancelAttemptCount;
    private int consecutiveErrorCount;
    private String lastPollError;
    private String lastCancelError;
    private Long cancelRequestedAt;
    private Long submitAttemptedAt;
    private String leasePhase;
    private String leaseOwner;
    private String leaseToken;
    private Long leaseExpiresAt;
    private String notificationStatus;
    private String eventFingerprint;
    private String eventPayload;
    private long eventVersion;
    private long notifiedVersion;
    private long dispatchVersion;
    private int dispatchAttempt;
    private String dispatchEvent;
    private int notificationAttemptCount;
    private String notificationError;
    private Long nextNotificationAt;
    private String notificationLeaseOwner;
    private String notificationLeaseToken;
    private Long notificationLeaseExpiresAt;

    String id() {
        return id;
    }

    long dispatchVersion() {
        return dispatchVersion;
    }

    int dispatchAttempt() {
        return dispatchAttempt;
    }

    String dispatchEvent() {
        return dispatchEvent;
    }

    TaskRecord toRecord() {
        return new TaskRecord(TaskId.of(id),
                new TaskRecord.Definition(serverName, toolName, arguments, driver, requestedTtlMs,
                        Instant.ofEpochMilli(createdAt)),
                new TaskRecord.State(TaskStatus.fromWire(status), statusMessage, result, resultTruncated, error,
                        errorCode, inputRequired, remoteTaskId, remoteTtlMs, protocolVersion, worker(endpointOwner),
                        worker(createdBy), Instant.ofEpochMilli(updatedAt), instant(completedAt), inputResponses,
                        requestState),
                new TaskRecord.Control(instant(nextControlAt), instant(lastPolledAt), submitAttemptCount,
                        pollAttemptCount, cancelAttemptCount, consecutiveErrorCount, lastPollError, lastCancelError,
                        instant(cancelRequestedAt), instant(submitAttemptedAt)),
                leaseOwner == null ? TaskRecord.Lease.NONE
                        : new TaskRecord.Lease(ClaimPhase.fromWire(leasePhase), WorkerId.of(leaseOwner),
                                ClaimToken.of(leaseToken), instant(leaseExpiresAt)),
                new TaskRecord.Outbox(NotificationStatus.fromWire(notificationStatus), eventFingerprint, eventPayload,
                        eventVersion, notifiedVersion, dispatchVersion, dispatchAttempt, dispatchEvent,
                        notificationAttemptCount, notificationError, instant(nextNotificationAt),
                        worker(notificationLeaseOwner), token(notificationLeaseToken),
                        instant(notificationLeaseExpiresAt)));
    }

    private static Instant instant(Long epochMillis) {
        return epochMillis == null ? null : Instant.ofEpochMilli(epochMillis);
    }

    private static WorkerId worker(String value) {
        return value == null ? null : WorkerId.of(value);
    }

    private static ClaimToken token(String value) {
        return value == null ? null : ClaimToken.of(value);
    }
}
