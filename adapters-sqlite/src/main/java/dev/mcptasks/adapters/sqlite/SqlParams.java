package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.trace.TraceContext;

/** The parameter objects of {@link TaskMapper}: plain column values, instants as epoch milliseconds. */
final class SqlParams {
    private SqlParams() {}

    /**
     * A control or notification claim scan at {@code now}, granting leases until {@code expiresAt}; workers whose
     * heartbeat is older than {@code workerStaleAfterMillis} by SQLite's own clock are not alive.
     */
    record ClaimScan(String worker, long now, long expiresAt, long workerStaleAfterMillis, int limit) {}

    /** The control-claim fence: every fenced write repeats id, phase, owner and token. */
    record Fence(String id, String phase, String owner, String token) {}

    /** The notification-lease fence. */
    record NotifyFence(String id, String owner, String token) {}

    /**
     * A snapshot to store (applySubmitted, applyOutcome, local cancellation) with its optional event, and the
     * delivery of that event the write takes ({@code takeOwner} null: none).
     */
    record SnapshotValues(String remoteTaskId, String status, String statusMessage, String result,
            boolean resultTruncated, String error, String errorCode, String inputRequired, Long remoteTtlMs,
            String protocolVersion, String endpointOwner, String endpointSession, Long nextControlAt,
            Long completedAt, String eventFingerprint, String eventPayload, String takeOwner, String takeToken,
            Long takeExpiresAt, Long takePriorVersion) {}

    /** A failure release with its optional degraded event. */
    record FailureValues(String error, long failedAt, long nextControlAt, boolean clearSubmitAttempt,
            String eventFingerprint, String eventPayload) {}

    /**
     * A new pending row; its lease columns are null (and no attempt recorded) unless the create takes a submit claim
     * ({@link dev.mcptasks.ports.repository.CreateClaim}): then the lease, and the first create request as attempted.
     */
    record NewRow(String id, String serverName, String toolName, String arguments, String driver,
            Long requestedTtlMs, long now, String principal, String traceparent,
            String tracestate, String leasePhase, String leaseOwner, String leaseToken, Long leaseExpiresAt,
            int submitAttempts, Long submitAttemptedAt) {

        static NewRow of(NewTask task, long now) {
            CreateClaim claim = task.claim();
            TraceContext trace = task.trace();
            return new NewRow(task.id().value(), task.serverName(), task.toolName(), task.argumentsJson(),
                    task.driver(), task.requestedTtlMs(), now, task.principal(),
                    trace == null ? null : trace.traceparent(), trace == null ? null : trace.tracestate(),
                    claim == null ? null : ClaimPhase.SUBMIT.wireName(),
                    claim == null ? null : claim.owner().value(), claim == null ? null : claim.token().value(),
                    claim == null ? null : now + claim.lease().toMillis(), claim == null ? 0 : 1,
                    claim == null ? null : now);
        }
    }

    /** A page of the task list. */
    record TaskFilter(String status, String serverName, String before, int limit, String principal) {}

    /** A worker heartbeat; the database stamps {@code last_seen_at} itself. */
    record WorkerValues(String id, String host, long pid, long startedAt) {}
}
