package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.TaskId;

/** A create request: the tool call to run as a remote task. */
public record SubmitCall(TaskId taskId, String serverName, String toolName, String argumentsJson, Long ttlMs) {}
