package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.TaskId;

/** Where a created task lives: the server and its remote id. */
public record RemoteTaskRef(TaskId taskId, String serverName, String toolName, String remoteTaskId) {}
