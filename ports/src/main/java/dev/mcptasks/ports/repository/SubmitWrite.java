package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.WorkerId;
import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of a create request that returned a remote task.
 *
 * @param remoteTaskId the server's task id (unique per server)
 * @param snapshot the status the server reported at creation
 * @param remoteTtlMs the ttl the server granted, or null
 * @param protocolVersion the negotiated MCP protocol version
 * @param endpointOwner this worker when the endpoint is process-local, else null
 * @param nextControlAt when to poll first (null when the snapshot is already terminal)
 * @param event the attention event of the snapshot, or null
 */
public record SubmitWrite(String remoteTaskId, StoredSnapshot snapshot, Long remoteTtlMs, String protocolVersion,
        WorkerId endpointOwner, Instant nextControlAt, AttentionEvent event) {
    public SubmitWrite {
        Objects.requireNonNull(remoteTaskId, "remoteTaskId");
        Objects.requireNonNull(snapshot, "snapshot");
    }
}
