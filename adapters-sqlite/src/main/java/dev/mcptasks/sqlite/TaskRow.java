package dev.mcptasks.sqlite;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRecord;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * One {@code tasks} row, turned into a {@link TaskRecord}. The list and find reads let MyBatis map it (column names in
 * camel case; MyBatis writes the fields reflectively); the writer's hot reads (a row after its claim or create) map
 * it by hand in {@link #read}, which measured about a fifth of the worker's CPU when MyBatis auto-mapped it.
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

    /** The row at the cursor of {@code rows} (a {@code SELECT *} of tasks); nullable integers stay null. */
    static TaskRow read(ResultSet rows) throws SQLException {
        TaskRow row = new TaskRow();
        row.id = rows.getString("id");
        row.serverName = rows.getString("server_name");
        row.toolName = rows.getString("tool_name");
        row.arguments = rows.getString("arguments");
        row.driver = rows.getString("driver");
        row.requestedTtlMs = nullableLong(rows, "requested_ttl_ms");
        row.createdAt = rows.getLong("created_at");
        row.status = rows.getString("status");
        row.statusMessage = rows.getString("status_message");
        row.result = rows.getString("result");
        row.resultTruncated = rows.getInt("result_truncated") != 0;
        row.error = rows.getString("error");
        row.errorCode = rows.getString("error_code");
        row.inputRequired = rows.getString("input_required");
        row.remoteTaskId = rows.getString("remote_task_id");
        row.remoteTtlMs = nullableLong(rows, "remote_ttl_ms");
        row.protocolVersion = rows.getString("protocol_version");
        row.endpointOwner = rows.getString("endpoint_owner");
        row.createdBy = rows.getString("created_by");
        row.updatedAt = rows.getLong("updated_at");
        row.completedAt = nullableLong(rows, "completed_at");
        row.inputResponses = rows.getString("input_responses");
        row.requestState = rows.getString("request_state");
        row.nextControlAt = nullableLong(rows, "next_control_at");
        row.lastPolledAt = nullableLong(rows, "last_polled_at");
        row.submitAttemptCount = rows.getInt("submit_attempt_count");
        row.pollAttemptCount = rows.getInt("poll_attempt_count");
        row.cancelAttemptCount = rows.getInt("cancel_attempt_count");
        row.consecutiveErrorCount = rows.getInt("consecutive_error_count");
        row.lastPollError = rows.getString("last_poll_error");
        row.lastCancelError = rows.getString("last_cancel_error");
        row.cancelRequestedAt = nullableLong(rows, "cancel_requested_at");
        row.submitAttemptedAt = nullableLong(rows, "submit_attempted_at");
        row.leasePhase = rows.getString("lease_phase");
        row.leaseOwner = rows.getString("lease_owner");
        row.leaseToken = rows.getString("lease_token");
        row.leaseExpiresAt = nullableLong(rows, "lease_expires_at");
        row.notificationStatus = rows.getString("notification_status");
        row.eventFingerprint = rows.getString("event_fingerprint");
        row.eventPayload = rows.getString("event_payload");
        row.eventVersion = rows.getLong("event_version");
        row.notifiedVersion = rows.getLong("notified_version");
        row.dispatchVersion = rows.getLong("dispatch_version");
        row.dispatchAttempt = rows.getInt("dispatch_attempt");
        row.dispatchEvent = rows.getString("dispatch_event");
        row.notificationAttemptCount = rows.getInt("notification_attempt_count");
        row.notificationError = rows.getString("notification_error");
        row.nextNotificationAt = nullableLong(rows, "next_notification_at");
        row.notificationLeaseOwner = rows.getString("notification_lease_owner");
        row.notificationLeaseToken = rows.getString("notification_lease_token");
        row.notificationLeaseExpiresAt = nullableLong(rows, "notification_lease_expires_at");
        return row;
    }

    private static Long nullableLong(ResultSet rows, String column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

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
