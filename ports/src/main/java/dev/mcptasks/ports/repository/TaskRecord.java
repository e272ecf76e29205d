package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.trace.TraceContext;
import java.time.Instant;

/**
 * One task row, whole. Instants are at millisecond precision. Equality is structural, which the contract suite uses
 * to prove that a stale write left the whole row unchanged.
 */
public record TaskRecord(TaskId id, Definition definition, State state, Control control, Lease lease, Outbox outbox) {

    /**
     * What was asked for; never changes after creation.
     *
     * @param principal the gateway principal that submitted the task, or null (CLI, Java API)
     * @param trace the trace context stored at submit, which every worker that drives the task continues, or null
     */
    public record Definition(String serverName, String toolName, String argumentsJson, String driver,
            Long requestedTtlMs, Instant createdAt, String principal, TraceContext trace) {

        /** A task of no trace. */
        public Definition(String serverName, String toolName, String argumentsJson, String driver,
                Long requestedTtlMs, Instant createdAt, String principal) {
            this(serverName, toolName, argumentsJson, driver, requestedTtlMs, createdAt, principal, null);
        }

        /** A task of no principal. */
        public Definition(String serverName, String toolName, String argumentsJson, String driver,
                Long requestedTtlMs, Instant createdAt) {
            this(serverName, toolName, argumentsJson, driver, requestedTtlMs, createdAt, null, null);
        }
    }

    /**
     * What is known of the task.
     *
     * @param endpointOwner the worker whose process-local endpoint (stdio child, session-bound HTTP server) created
     *     the remote task; null when the endpoint is shared or nothing was created yet
     * @param createdBy the worker whose create request made the remote task (whatever its endpoint), so a worker
     *     that cannot see the task can tell whether its creator may still be alive; null until created
     * @param inputRequiredJson what the server asks for while {@code input_required} (2026-07-28: its
     *     {@code inputRequests} object, key to request), or null
     * @param inputResponsesJson the user's answers not yet delivered to the server: a JSON object from input-request
     *     key to the bare answer, or null when none wait
     * @param requestState the server's opaque state of a multi-round-trip {@code tools/call} that asked for input
     *     before creating a task (status {@code input_required}, no remote id), or null
     * @param endpointSession the upstream MCP session ({@code Mcp-Session-Id}) in which the remote task was created,
     *     as the submit write stored it; null when the transport has no sessions or nothing was created yet. A server
     *     that binds its tasks to the creating session answers for the task only in it, so whichever worker polls or
     *     cancels next speaks in it again. It grants access to that session: never logged or shown, and
     *     {@link #toString()} redacts it
     */
    public record State(TaskStatus status, String statusMessage, String resultJson, boolean resultTruncated,
            String error, String errorCode, String inputRequiredJson, String remoteTaskId, Long remoteTtlMs,
            String protocolVersion, WorkerId endpointOwner, WorkerId createdBy, Instant updatedAt,
            Instant completedAt, String inputResponsesJson, String requestState, String endpointSession) {

        /**
         * Whether the row is a multi-round-trip round before any remote task exists: the create request is sent
         * again (submit phase) once answered.
         */
        public boolean awaitsInputBeforeTask() {
            return status == TaskStatus.INPUT_REQUIRED && remoteTaskId == null;
        }

        @Override
        public String toString() {
            return "State[status=" + status + ", statusMessage=" + statusMessage + ", resultJson=" + resultJson
                    + ", resultTruncated=" + resultTruncated + ", error=" + error + ", errorCode=" + errorCode
                    + ", inputRequiredJson=" + inputRequiredJson + ", remoteTaskId=" + remoteTaskId
                    + ", remoteTtlMs=" + remoteTtlMs + ", protocolVersion=" + protocolVersion + ", endpointOwner="
                    + endpointOwner + ", createdBy=" + createdBy + ", updatedAt=" + updatedAt + ", completedAt="
                    + completedAt + ", inputResponsesJson=" + inputResponsesJson + ", requestState=" + requestState
                    + ", endpointSession=" + (endpointSession == null ? null : "(redacted)") + "]";
        }
    }

    /**
     * Control scheduling and counters.
     *
     * @param nextControlAt when the current phase is next due; null means never
     * @param lastPollError the last error of a submit or poll attempt
     */
    public record Control(Instant nextControlAt, Instant lastPolledAt, int submitAttemptCount, int pollAttemptCount,
            int cancelAttemptCount, int consecutiveErrorCount, String lastPollError, String lastCancelError,
            Instant cancelRequestedAt, Instant submitAttemptedAt) {}

    /** The control claim; all fields null when the row is not claimed. */
    public record Lease(ClaimPhase phase, WorkerId owner, ClaimToken token, Instant expiresAt) {
        public static final Lease NONE = new Lease(null, null, null, null);

        public boolean isHeld() {
            return owner != null;
        }
    }

    /** The notification outbox of the row and its own lease. */
    public record Outbox(NotificationStatus status, String eventFingerprint, String eventPayload, long eventVersion,
            long notifiedVersion, long dispatchVersion, int dispatchAttempt, String dispatchEvent, int attemptCount,
            String error, Instant nextAt, WorkerId leaseOwner, ClaimToken leaseToken, Instant leaseExpiresAt) {}

    public TaskStatus status() {
        return state.status();
    }
}
