package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import java.time.Duration;

/** Reads a 2025-11-25 {@code Task} object into a snapshot; a missing id or status, or an unknown status, is PROTOCOL. */
final class TaskParser2025 {
    private TaskParser2025() {}

    /**
     * @param task the {@code Task} object (flat {@code tasks/get} result or {@code task} of a create result)
     * @param expectedId the remote id asked about, or null for a create
     */
    static RemoteTaskSnapshot parse(String serverName, String method, JsonNode task, String expectedId) {
        if (task == null || !task.isObject()) {
            throw RemoteFailures.protocol(where(serverName, method) + "the answer is not a Task object");
        }
        JsonNode id = task.get("taskId");
        if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
            throw RemoteFailures.protocol(where(serverName, method) + "the Task has no taskId");
        }
        if (expectedId != null && !expectedId.equals(id.textValue())) {
            throw RemoteFailures.protocol(where(serverName, method) + "asked about task '" + expectedId
                    + "' but the answer is about '" + id.textValue() + "'");
        }
        TaskStatus status = status(serverName, method, task.get("status"));
        JsonNode message = task.get("statusMessage");
        String statusMessage = message != null && message.isTextual() ? message.textValue() : null;
        JsonNode poll = task.get("pollInterval");
        Duration pollAfter = poll != null && poll.isNumber() && poll.asLong() >= 0 ? Duration.ofMillis(poll.asLong())
                : null;
        JsonNode ttl = task.get("ttl");
        Long remoteTtlMs = ttl != null && ttl.isNumber() ? ttl.asLong() : null;
        String error = null;
        String errorCode = null;
        if (status == TaskStatus.FAILED) {
            error = statusMessage != null ? statusMessage : "the remote task failed";
            errorCode = ErrorCodes.REMOTE_FAILED;
        }
        return new RemoteTaskSnapshot(id.textValue(), status, statusMessage, null, error, errorCode, pollAfter, null,
                remoteTtlMs);
    }

    static TaskStatus status(String serverName, String method, JsonNode status) {
        if (status == null || !status.isTextual()) {
            throw RemoteFailures.protocol(where(serverName, method) + "the Task has no status");
        }
        return switch (status.textValue()) {
            case "working" -> TaskStatus.WORKING;
            case "input_required" -> TaskStatus.INPUT_REQUIRED;
            case "completed" -> TaskStatus.COMPLETED;
            case "failed" -> TaskStatus.FAILED;
            case "cancelled" -> TaskStatus.CANCELLED;
            default -> throw RemoteFailures.protocol(where(serverName, method) + "unknown task status '"
                    + status.textValue() + "'");
        };
    }

    private static String where(String serverName, String method) {
        return "server '" + serverName + "', " + method + ": ";
    }
}
