package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import java.util.Objects;

/**
 * What a create request answered. Three shapes:
 * <ul>
 *   <li>a created remote task: the snapshot has the remote task id (any status);</li>
 *   <li>a call that finished at once without a task (2026-07-28 {@code resultType: complete}): a terminal snapshot
 *       without a remote id, carrying the result;</li>
 *   <li>a multi-round-trip round before any task exists (2026-07-28 {@code resultType: input_required}): an
 *       {@code input_required} snapshot without a remote id whose {@code inputRequiredJson} is the server's
 *       {@code inputRequests} object, and the opaque {@code requestState} to send back with the answers.</li>
 * </ul>
 *
 * @param snapshot what the server reported
 * @param protocolVersion the protocol version the request was sent under (it decides the task's generation)
 * @param processLocal true when the task lives only in this worker's endpoint (a stdio child, a session-bound HTTP
 *     server), so only this worker can reach it while it is alive
 * @param requestState the server's opaque state of an input round, else null
 * @param endpointSession the server's session id ({@code Mcp-Session-Id}) of the session the create request was
 *     sent in, when the transport has sessions, else null (see {@link RemoteTaskRef#endpointSession()})
 */
public record SubmitResult(RemoteTaskSnapshot snapshot, String protocolVersion, boolean processLocal,
        String requestState, String endpointSession) {
    public SubmitResult {
        Objects.requireNonNull(snapshot, "snapshot");
        if (snapshot.remoteTaskId() == null && !snapshot.status().isTerminal()
                && snapshot.status() != TaskStatus.INPUT_REQUIRED) {
            throw new IllegalArgumentException("a created task needs its remote task id (status "
                    + snapshot.status().wireName() + ")");
        }
        // the parameters, not isInputRound(): the fields are not assigned yet in a compact constructor
        if (requestState != null
                && !(snapshot.remoteTaskId() == null && snapshot.status() == TaskStatus.INPUT_REQUIRED)) {
            throw new IllegalArgumentException("requestState belongs to an input round only");
        }
    }

    public SubmitResult(RemoteTaskSnapshot snapshot, String protocolVersion, boolean processLocal,
            String requestState) {
        this(snapshot, protocolVersion, processLocal, requestState, null);
    }

    public SubmitResult(RemoteTaskSnapshot snapshot, String protocolVersion, boolean processLocal) {
        this(snapshot, protocolVersion, processLocal, null, null);
    }

    /** The same result, reported as living only in this worker's endpoint. */
    public SubmitResult asProcessLocal() {
        return new SubmitResult(snapshot, protocolVersion, true, requestState, endpointSession);
    }

    /** The same result, created in the given upstream session. */
    public SubmitResult inSession(String sessionId) {
        return new SubmitResult(snapshot, protocolVersion, processLocal, requestState, sessionId);
    }

    /** Keeps the session id out of logs and exception messages. */
    @Override
    public String toString() {
        return "SubmitResult[snapshot=" + snapshot + ", protocolVersion=" + protocolVersion + ", processLocal="
                + processLocal + ", requestState=" + requestState + ", endpointSession="
                + (endpointSession == null ? null : "(redacted)") + "]";
    }

    /** Whether a remote task was created. */
    public boolean createdTask() {
        return snapshot.remoteTaskId() != null;
    }

    /** Whether the server asked for input before creating anything (answer, then submit again). */
    public boolean isInputRound() {
        return snapshot.remoteTaskId() == null && snapshot.status() == TaskStatus.INPUT_REQUIRED;
    }
}
