package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.TaskId;

/**
 * A create request: the tool call to run as a remote task.
 *
 * @param inputRound the answers to the server's input requests when this call repeats a multi-round-trip
 *     {@code tools/call}, else null
 */
public record SubmitCall(TaskId taskId, String serverName, String toolName, String argumentsJson, Long ttlMs,
        InputRound inputRound) {

    public SubmitCall(TaskId taskId, String serverName, String toolName, String argumentsJson, Long ttlMs) {
        this(taskId, serverName, toolName, argumentsJson, ttlMs, null);
    }
}
