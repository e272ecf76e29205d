package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.WorkerId;
import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of a create request: a created remote task, a call that finished at once without a task, or a
 * multi-round-trip round before any task (see {@code SubmitResult}).
 *
 * @param remoteTaskId the server's task id (unique per server); null when no task was created (the snapshot is then
 *     terminal, or {@code input_required} for an input round)
 * @param snapshot the status the server reported at creation
 * @param remoteTtlMs the ttl the server granted, or null
 * @param protocolVersion the negotiated MCP protocol version
 * @param endpointOwner this worker when the endpoint is process-local, else null
 * @param nextControlAt when to poll first (null when the snapshot is already terminal)
 * @param event the attention event of the snapshot, or null
 * @param requestState the server's opaque state of an input round, else null
 * @param endpointSession the upstream MCP session ({@code Mcp-Session-Id}) in which the remote task was created, or
 *     null when the transport has no sessions; a server that binds its tasks to the creating session is reached
 *     through it again by whichever worker polls or cancels the task next. It grants access to that session, as a
 *     bearer credential would: stored and read back, never logged or shown ({@link #toString()} redacts it)
 * @param take the delivery of {@code event} the write takes for its worker, or null (see {@link DeliveryTake})
 */
public record SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
        WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event, String requestState,
        String endpointSession, DeliveryTake take) {
    public SubmitWrite {
        Objects.requireNonNull(snapshot, "snapshot");
        if (remoteTaskId == null && !snapshot.status().isTerminal()
                && snapshot.status() != dev.mcptasks.domain.TaskStatus.INPUT_REQUIRED) {
            throw new IllegalArgumentException("a created task needs its remote task id");
        }
    }

    /** A write taking no delivery. */
    public SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
            WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event, String requestState,
            String endpointSession) {
        this(remoteTaskId, snapshot, remoteTtlMs, protocolVersion, endpointOwner, nextControlAt, event, requestState,
                endpointSession, null);
    }

    /** This write taking the delivery of its event with {@code take} (null: taking none). */
    public SubmitWrite withTake(DeliveryTake take) {
        return new SubmitWrite(remoteTaskId, snapshot, remoteTtlMs, protocolVersion, endpointOwner, nextControlAt,
                event, requestState, endpointSession, take);
    }

    /** A write created in no upstream session. */
    public SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
            WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event, String requestState) {
        this(remoteTaskId, snapshot, remoteTtlMs, protocolVersion, endpointOwner, nextControlAt, event, requestState,
                null, null);
    }

    /** A write of no input round, created in no upstream session. */
    public SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
            WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event) {
        this(remoteTaskId, snapshot, remoteTtlMs, protocolVersion, endpointOwner, nextControlAt, event, null, null,
                null);
    }

    @Override
    public String toString() {
        return "SubmitWrite[remoteTaskId=" + remoteTaskId + ", snapshot=" + snapshot + ", remoteTtlMs=" + remoteTtlMs
                + ", protocolVersion=" + protocolVersion + ", endpointOwner=" + endpointOwner + ", nextControlAt="
                + nextControlAt + ", event=" + event + ", requestState=" + requestState + ", endpointSession="
                + (endpointSession == null ? null : "(redacted)") + ", take=" + take + "]";
    }
}
