package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.TaskId;

/**
 * Where a created task lives: the server, its remote id, and the protocol version it was created under (a task is
 * always driven under the generation of its creation; null for rows that predate the field, read as 2025-11-25).
 */
public record RemoteTaskRef(TaskId taskId, String serverName, String toolName, String remoteTaskId,
        String protocolVersion) {

    public RemoteTaskRef(TaskId taskId, String serverName, String toolName, String remoteTaskId) {
        this(taskId, serverName, toolName, remoteTaskId, null);
    }

    public ProtocolGeneration generation() {
        return ProtocolGeneration.ofProtocolVersion(protocolVersion);
    }
}
