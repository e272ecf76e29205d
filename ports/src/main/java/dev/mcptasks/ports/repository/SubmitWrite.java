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
 */
public record SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
        WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event, String requestState) {
    public SubmitWrite {
        Objects.requireNonNull(snapshot, "snapshot");
        if (remoteTaskId == null && !snapshot.status().isTerminal()
                && snapshot.status() != dev.mcptasks.domain.TaskStatus.INPUT_REQUIRED) {
            throw new IllegalArgumentException("a created task needs its remote task id");
        }
    }

    public SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
            WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event) {
        this(remoteTaskId, snapshot, remoteTtlMs, protocolVersion, endpointOwner, nextControlAt, event, null);
    }
}
