package dev.mcptasks.adapters.postgres;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.apache.ibatis.type.BaseTypeHandler;
import org.apache.ibatis.type.JdbcType;

/**
 * Reads a whole {@code tasks} row by hand. Registered as the type handler of {@link TaskRow}, so MyBatis hands the
 * result set over instead of auto-mapping the ~55 columns by reflection on every row (half the store's CPU went
 * there). Every statement that returns a {@code TaskRow} selects {@code tasks.*} (claims add {@code expired_owner},
 * which the claim's own history insert reads, and {@code expired_phase} as the last column); a column added by a
 * migration must be read here too.
 */
final class TaskRowReader extends BaseTypeHandler<TaskRow> {
    private static final String EXPIRED_PHASE = "expired_phase";

    @Override
    public TaskRow getNullableResult(ResultSet rs, String columnName) throws SQLException {
        return read(rs);
    }

    @Override
    public TaskRow getNullableResult(ResultSet rs, int columnIndex) throws SQLException {
        return read(rs);
    }

    @Override
    public TaskRow getNullableResult(CallableStatement cs, int columnIndex) {
        throw new UnsupportedOperationException("a task row is never an OUT parameter");
    }

    @Override
    public void setNonNullParameter(PreparedStatement ps, int i, TaskRow parameter, JdbcType jdbcType) {
        throw new UnsupportedOperationException("a task row is never a parameter");
    }

    static TaskRow read(ResultSet rs) throws SQLException {
        TaskRow row = new TaskRow();
        row.id = rs.getString("id");
        row.serverName = rs.getString("server_name");
        row.toolName = rs.getString("tool_name");
        row.arguments = rs.getString("arguments");
        row.driver = rs.getString("driver");
        row.requestedTtlMs = nullableLong(rs, "requested_ttl_ms");
        row.createdAt = instant(rs, "created_at");
        row.principal = rs.getString("principal");
        row.traceparent = rs.getString("traceparent");
        row.tracestate = rs.getString("tracestate");

        row.status = rs.getString("status");
        row.statusMessage = rs.getString("status_message");
        row.result = rs.getString("result");
        row.resultTruncated = rs.getBoolean("result_truncated");
        row.error = rs.getString("error");
        row.errorCode = rs.getString("error_code");
        row.inputRequired = rs.getString("input_required");
        row.remoteTaskId = rs.getString("remote_task_id");
        row.remoteTtlMs = nullableLong(rs, "remote_ttl_ms");
        row.protocolVersion = rs.getString("protocol_version");
        row.endpointOwner = rs.getString("endpoint_owner");
        row.createdBy = rs.getString("created_by");
        row.updatedAt = instant(rs, "updated_at");
        row.completedAt = instant(rs, "completed_at");
        row.inputResponses = rs.getString("input_responses");
        row.requestState = rs.getString("request_state");
        row.endpointSession = rs.getString("endpoint_session");

        row.nextControlAt = instant(rs, "next_control_at");
        row.lastPolledAt = instant(rs, "last_polled_at");
        row.submitAttemptCount = rs.getInt("submit_attempt_count");
        row.pollAttemptCount = rs.getInt("poll_attempt_count");
        row.cancelAttemptCount = rs.getInt("cancel_attempt_count");
        row.consecutiveErrorCount = rs.getInt("consecutive_error_count");
        row.lastPollError = rs.getString("last_poll_error");
        row.lastCancelError = rs.getString("last_cancel_error");
        row.cancelRequestedAt = instant(rs, "cancel_requested_at");
        row.submitAttemptedAt = instant(rs, "submit_attempted_at");

        row.leasePhase = rs.getString("lease_phase");
        row.leaseOwner = rs.getString("lease_owner");
        row.leaseToken = rs.getString("lease_token");
        row.leaseExpiresAt = instant(rs, "lease_expires_at");

        row.notificationStatus = rs.getString("notification_status");
        row.eventFingerprint = rs.getString("event_fingerprint");
        row.eventPayload = rs.getString("event_payload");
        row.eventVersion = rs.getLong("event_version");
        row.notifiedVersion = rs.getLong("notified_version");
        row.dispatchVersion = rs.getLong("dispatch_version");
        row.dispatchAttempt = rs.getInt("dispatch_attempt");
        row.dispatchEvent = rs.getString("dispatch_event");
        row.notificationAttemptCount = rs.getInt("notification_attempt_count");
        row.notificationError = rs.getString("notification_error");
        row.nextNotificationAt = instant(rs, "next_notification_at");
        row.notificationLeaseOwner = rs.getString("notification_lease_owner");
        row.notificationLeaseToken = rs.getString("notification_lease_token");
        row.notificationLeaseExpiresAt = instant(rs, "notification_lease_expires_at");

        ResultSetMetaData columns = rs.getMetaData();
        int last = columns.getColumnCount();
        if (EXPIRED_PHASE.equals(columns.getColumnLabel(last))) {
            row.expiredPhase = rs.getString(last);
        }
        return row;
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
