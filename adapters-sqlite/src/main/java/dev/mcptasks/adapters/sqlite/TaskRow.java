package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.trace.TraceContext;
import java.sql.SQLException;
import java.time.Instant;

/**
 * One {@code tasks} row, turned into a {@link TaskRecord}. Read by hand in {@link #read}, never auto-mapped: by the
 * writer session's hot reads (a row after its claim or create) and, through {@link TaskRowHandler}, by the mapper's
 * reads (find, lists). Auto-mapping it measured about a fifth of the worker's CPU and a third of a gateway's.
 */
final class TaskRow {
    private String id;
    private String serverName;
    private String toolName;
    private String arguments;
    private String driver;
    private Long requestedTtlMs;
    private long createdAt;
    private String principal;
    private String traceparent;
    private String tracestate;
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
    private String endpointSession;
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
    static TaskRow read(ColumnReader rows) throws SQLException {
        TaskRow row = new TaskRow();
        row.id = rows.string("id");
        row.serverName = rows.string("server_name");
        row.toolName = rows.string("tool_name");
        row.arguments = rows.string("arguments");
        row.driver = rows.string("driver");
        row.requestedTtlMs = rows.nullableNumber("requested_ttl_ms");
        row.createdAt = rows.number("created_at");
        row.principal = rows.string("principal");
        row.traceparent = rows.string("traceparent");
        row.tracestate = rows.string("tracestate");
        row.status = rows.string("status");
        row.statusMessage = rows.string("status_message");
        row.result = rows.string("result");
        row.resultTruncated = rows.integer("result_truncated") != 0;
        row.error = rows.string("error");
        row.errorCode = rows.string("error_code");
        row.inputRequired = rows.string("input_required");
        row.remoteTaskId = rows.string("remote_task_id");
        row.remoteTtlMs = rows.nullableNumber("remote_ttl_ms");
        row.protocolVersion = rows.string("protocol_version");
        row.endpointOwner = rows.string("endpoint_owner");
        row.createdBy = rows.string("created_by");
        row.updatedAt = rows.number("updated_at");
        row.completedAt = rows.nullableNumber("completed_at");
        row.inputResponses = rows.string("input_responses");
        row.requestState = rows.string("request_state");
        row.endpointSession = rows.string("endpoint_session");
        row.nextControlAt = rows.nullableNumber("next_control_at");
        row.lastPolledAt = rows.nullableNumber("last_polled_at");
        row.submitAttemptCount = rows.integer("submit_attempt_count");
        row.pollAttemptCount = rows.integer("poll_attempt_count");
        row.cancelAttemptCount = rows.integer("cancel_attempt_count");
        row.consecutiveErrorCount = rows.integer("consecutive_error_count");
        row.lastPollError = rows.string("last_poll_error");
        row.lastCancelError = rows.string("last_cancel_error");
        row.cancelRequestedAt = rows.nullableNumber("cancel_requested_at");
        row.submitAttemptedAt = rows.nullableNumber("submit_attempted_at");
        row.leasePhase = rows.string("lease_phase");
        row.leaseOwner = rows.string("lease_owner");
        row.leaseToken = rows.string("lease_token");
        row.leaseExpiresAt = rows.nullableNumber("lease_expires_at");
        row.notificationStatus = rows.string("notification_status");
        row.eventFingerprint = rows.string("event_fingerprint");
        row.eventPayload = rows.string("event_payload");
        row.eventVersion = rows.number("event_version");
        row.notifiedVersion = rows.number("notified_version");
        row.dispatchVersion = rows.number("dispatch_version");
        row.dispatchAttempt = rows.integer("dispatch_attempt");
        row.dispatchEvent = rows.string("dispatch_event");
        row.notificationAttemptCount = rows.integer("notification_attempt_count");
        row.notificationError = rows.string("notification_error");
        row.nextNotificationAt = rows.nullableNumber("next_notification_at");
        row.notificationLeaseOwner = rows.string("notification_lease_owner");
        row.notificationLeaseToken = rows.string("notification_lease_token");
        row.notificationLeaseExpiresAt = rows.nullableNumber("notification_lease_expires_at");
        return row;
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
                        Instant.ofEpochMilli(createdAt), principal,
                        TraceContext.parse(traceparent, tracestate)),
                new TaskRecord.State(TaskStatus.fromWire(status), statusMessage, result, resultTruncated, error,
                        errorCode, inputRequired, remoteTaskId, remoteTtlMs, protocolVersion, worker(endpointOwner),
                        worker(createdBy), Instant.ofEpochMilli(updatedAt), instant(completedAt), inputResponses,
                        requestState, endpointSession),
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
