package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import java.time.Duration;

/**
 * Reads 2026-07-28 task answers into snapshots: the flat {@code CreateTaskResult} of {@code tools/call} and the
 * {@code DetailedTask} of {@code tasks/get}, whose result, error or input requests ride inline. Unknown fields are
 * tolerated (SDK 2.4.0 adds {@code content: []} to a CreateTaskResult); a missing id or status, an unknown status or
 * an unknown {@code resultType} is PROTOCOL.
 */
final class TaskParser2026 {
    private TaskParser2026() {}

    /**
     * @param task the {@code Task} / {@code DetailedTask} object
     * @param expectedId the remote id asked about, or null for a create (a {@code CreateTaskResult} is a plain
     *     {@code Task}: a task that ended before the answer left reports its status without its result or error)
     */
    static RemoteTaskSnapshot parse(String serverName, String method, JsonNode task, String expectedId) {
        if (task == null || !task.isObject()) {
            throw RemoteFailures.protocol(where(serverName, method) + "the answer is not a task object");
        }
        JsonNode resultType = task.get("resultType");
        // the SEP's examples show "task" on tasks/get where its text says "complete": both are read by status
        if (resultType != null && !("complete".equals(resultType.asText()) || "task".equals(resultType.asText()))) {
            throw RemoteFailures.protocol(where(serverName, method) + "unknown resultType " + resultType);
        }
        JsonNode id = task.get("taskId");
        if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
            throw RemoteFailures.protocol(where(serverName, method) + "the task has no taskId");
        }
        if (expectedId != null && !expectedId.equals(id.textValue())) {
            throw RemoteFailures.protocol(where(serverName, method) + "asked about task '" + expectedId
                    + "' but the answer is about '" + id.textValue() + "'");
        }
        TaskStatus status = TaskParser2025.status(serverName, method, task.get("status"));
        JsonNode message = task.get("statusMessage");
        String statusMessage = message != null && message.isTextual() ? message.textValue() : null;
        JsonNode poll = task.get("pollIntervalMs");
        Duration pollAfter = poll != null && poll.isNumber() && poll.asLong() >= 0 ? Duration.ofMillis(poll.asLong())
                : null;
        JsonNode ttl = task.get("ttlMs");
        Long remoteTtlMs = ttl != null && ttl.isNumber() ? ttl.asLong() : null;
        RemoteTaskSnapshot snapshot = new RemoteTaskSnapshot(id.textValue(), status, statusMessage, null, null, null,
                pollAfter, null, remoteTtlMs);
        if (expectedId == null && !task.has("result") && !task.has("error")) {
            return status == TaskStatus.FAILED ? failed(snapshot, null) : snapshot;
        }
        return switch (status) {
            case COMPLETED -> completed(serverName, method, snapshot, task.get("result"));
            case FAILED -> failed(snapshot, task.get("error"));
            case INPUT_REQUIRED -> inputRequired(snapshot, task.get("inputRequests"));
            default -> snapshot;
        };
    }

    /**
     * A finished call's {@code CallToolResult} (with or without its own {@code resultType}): COMPLETED with the
     * result, or FAILED with the tool's text when it says {@code isError} (2026 reports tool errors as completed).
     */
    static RemoteTaskSnapshot finished(RemoteTaskSnapshot snapshot, JsonNode result, String fallbackError) {
        RemoteTaskSnapshot withResult = snapshot.withResult(Json.write(result));
        if (!ToolResults.isError(result)) {
            return withResult;
        }
        return new RemoteTaskSnapshot(snapshot.remoteTaskId(), TaskStatus.FAILED, snapshot.statusMessage(),
                withResult.resultJson(), ToolResults.describe(result, fallbackError), ErrorCodes.REMOTE_FAILED,
                snapshot.pollAfter(), null, snapshot.remoteTtlMs());
    }

    private static RemoteTaskSnapshot completed(String serverName, String method, RemoteTaskSnapshot snapshot,
            JsonNode result) {
        if (result == null || !result.isObject()) {
            throw RemoteFailures.protocol(where(serverName, method) + "task " + snapshot.remoteTaskId()
                    + " is completed but carries no result object");
        }
        return finished(snapshot, result, "the remote tool reported an error");
    }

    private static RemoteTaskSnapshot failed(RemoteTaskSnapshot snapshot, JsonNode error) {
        String text;
        if (error != null && error.isObject()) {
            text = "error " + error.path("code").asText("?") + ": " + error.path("message").asText("");
        } else {
            text = snapshot.statusMessage() != null ? snapshot.statusMessage() : "the remote task failed";
        }
        return snapshot.withError(ErrorCodes.REMOTE_FAILED, text);
    }

    private static RemoteTaskSnapshot inputRequired(RemoteTaskSnapshot snapshot, JsonNode requests) {
        if (requests == null || !requests.isObject()) {
            return snapshot;
        }
        return new RemoteTaskSnapshot(snapshot.remoteTaskId(), snapshot.status(), snapshot.statusMessage(), null,
                null, null, snapshot.pollAfter(), Json.write(requests), snapshot.remoteTtlMs());
    }

    private static String where(String serverName, String method) {
        return "server '" + serverName + "', " + method + ": ";
    }
}
