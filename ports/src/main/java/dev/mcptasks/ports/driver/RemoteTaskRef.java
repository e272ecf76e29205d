package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.TaskId;

/**
 * Where a created task lives: the server, its remote id, the protocol version it was created under (a task is
 * always driven under the generation of its creation; null for rows that predate the field, read as 2025-11-25), and
 * the upstream session it was created in.
 *
 * @param endpointSession the server's session id ({@code Mcp-Session-Id}) of the session that created the task, or
 *     null (no sessions, or a row that predates the field). Servers that bind tasks to their session (the TypeScript
 *     SDK's task store) answer for the task only in that session, so another worker speaks in it again. A credential
 *     for that session: never logged.
 */
public record RemoteTaskRef(TaskId taskId, String serverName, String toolName, String remoteTaskId,
        String protocolVersion, String endpointSession) {

    public RemoteTaskRef(TaskId taskId, String serverName, String toolName, String remoteTaskId) {
        this(taskId, serverName, toolName, remoteTaskId, null, null);
    }

    public RemoteTaskRef(TaskId taskId, String serverName, String toolName, String remoteTaskId,
            String protocolVersion) {
        this(taskId, serverName, toolName, remoteTaskId, protocolVersion, null);
    }

    /** Keeps the session id out of logs and exception messages. */
    @Override
    public String toString() {
        return "RemoteTaskRef[taskId=" + taskId + ", serverName=" + serverName + ", toolName=" + toolName
                + ", remoteTaskId=" + remoteTaskId + ", protocolVersion=" + protocolVersion + ", endpointSession="
                + (endpointSession == null ? null : "(redacted)") + "]";
    }

    public ProtocolGeneration generation() {
        return ProtocolGeneration.ofProtocolVersion(protocolVersion);
    }
}
