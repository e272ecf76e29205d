package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import java.util.Objects;

/**
 * A created remote task.
 *
 * @param snapshot what the server reported (its remote task id is required)
 * @param protocolVersion the negotiated protocol version of the session that created it
 * @param processLocal true when the task lives only in this worker's endpoint (a stdio child, a session-bound HTTP
 *     server), so only this worker can reach it while it is alive
 */
public record SubmitResult(RemoteTaskSnapshot snapshot, String protocolVersion, boolean processLocal) {
    public SubmitResult {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(snapshot.remoteTaskId(), "snapshot.remoteTaskId");
    }
}
