package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import java.time.Duration;

/**
 * Reads the {@code structuredContent} of an ordinary submit/status/cancel tool: {@code {task_id, status:
 * running|input_required|completed|failed|cancelled, result?, error?, error_code?, poll_after_seconds?}}.
 */
final class OrdinaryStatusParser {
    static final String NOT_FOUND = "not_found";

    private OrdinaryStatusParser() {}

    /** @param expectedId the id asked about, or null for a submit */
    static RemoteTaskSnapshot parse(String serverName, String tool, JsonNode callToolResult, String expectedId) {
        String where = "server '" + serverName + "', tool " + tool + ": ";
        JsonNode content = callToolResult.get("structuredContent");
        if (content == null || !content.isObject()) {
            throw RemoteFailures.protocol(where + "the result has no structuredContent object");
        }
        JsonNode errorCode = content.get("error_code");
        if (errorCode != null && NOT_FOUND.equals(errorCode.asText())) {
            throw RemoteFailures.lost(where + "the task " + (expectedId == null ? "" : expectedId + " ")
                    + "is unknown: " + content.path("error").asText("not_found"), null);
        }
        JsonNode id = content.get("task_id");
        if (id == null || !(id.isTextual() || id.isIntegralNumber()) || id.asText().isEmpty()) {
            throw RemoteFailures.protocol(where + "structuredContent has no task_id");
        }
        if (expectedId != null && !expectedId.equals(id.asText())) {
            throw RemoteFailures.protocol(where + "asked about task '" + expectedId + "' but the answer is about '"
                    + id.asText() + "'");
        }
        TaskStatus status = status(where, content.get("status"));
        JsonNode result = content.get("result");
        String resultJson = result == null || result.isNull() ? null : Json.write(result);
        JsonNode error = content.get("error");
        String errorText = error == null || error.isNull() ? null : error.isTextual() ? error.textValue()
                : Json.write(error);
        String code = null;
        if (status == TaskStatus.FAILED) {
            code = ErrorCodes.REMOTE_FAILED;
            errorText = errorText != null ? errorText : "the remote task failed";
        }
        JsonNode poll = content.get("poll_after_seconds");
        Duration pollAfter = poll != null && poll.isNumber() && poll.asDouble() >= 0
                ? Duration.ofMillis(Math.round(poll.asDouble() * 1000)) : null;
        String inputRequired = status == TaskStatus.INPUT_REQUIRED ? Json.write(content) : null;
        return new RemoteTaskSnapshot(id.asText(), status, null, resultJson, errorText, code, pollAfter,
                inputRequired, null);
    }

    private static TaskStatus status(String where, JsonNode status) {
        if (status == null || !status.isTextual()) {
            throw RemoteFailures.protocol(where + "structuredContent has no status");
        }
        return switch (status.textValue()) {
            case "running" -> TaskStatus.WORKING;
            case "input_required" -> TaskStatus.INPUT_REQUIRED;
            case "completed" -> TaskStatus.COMPLETED;
            case "failed" -> TaskStatus.FAILED;
            case "cancelled" -> TaskStatus.CANCELLED;
            default -> throw RemoteFailures.protocol(where + "unknown status '" + status.textValue()
                    + "'; expected running, input_required, completed, failed or cancelled");
        };
    }
}
