package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;

/**
 * What a stored row says about its call, whichever generation created it: still running, the tool's result, the
 * tool's error result ({@code isError}; the drivers store it with status failed), a failure without a result (an
 * upstream JSON-RPC error, a lost or refused task), or a cancellation.
 */
sealed interface StoredOutcome {
    /** Not finished: pending, working or input_required. */
    record Running(TaskStatus status) implements StoredOutcome {}

    record Succeeded(ObjectNode result) implements StoredOutcome {}

    /** The tool ran and reported an error: its CallToolResult, {@code isError:true}. */
    record ToolError(ObjectNode result) implements StoredOutcome {}

    /** No result to show: the stored error text and code ({@code ErrorCodes}). */
    record Failed(String message, String errorCode) implements StoredOutcome {}

    record Cancelled(String message) implements StoredOutcome {}

    static StoredOutcome of(TaskRecord row) {
        TaskRecord.State state = row.state();
        return switch (state.status()) {
            case PENDING, WORKING, INPUT_REQUIRED -> new Running(state.status());
            case COMPLETED -> new Succeeded(callToolResult(state));
            case FAILED -> state.resultJson() != null
                    ? new ToolError(callToolResult(state).put("isError", true))
                    : new Failed(PrincipalText.summary(firstOf(state.error(), state.statusMessage(),
                            "the task failed")), state.errorCode());
            case CANCELLED -> new Cancelled(state.statusMessage());
        };
    }

    /**
     * The error a call answers with when its task has no result: the generation-neutral JSON-RPC error, naming the
     * task so a client can look at it.
     */
    default FrontError asError(String taskId) {
        ObjectNode data = FrontJson.object().put("taskId", taskId);
        if (this instanceof Failed failed) {
            data.put("errorCode", failed.errorCode());
            return new FrontError(FrontError.INTERNAL, failed.message(), data);
        }
        if (this instanceof Cancelled cancelled) {
            return new FrontError(FrontError.INTERNAL, "Task " + taskId + " was cancelled and has no result"
                    + (cancelled.message() == null ? "" : ": " + cancelled.message()), data);
        }
        throw new IllegalStateException("task " + taskId + " has a result: " + this);
    }

    /**
     * The stored CallToolResult. A result too large to store was kept as a preview envelope: it is shown as a
     * text result saying so, never as the envelope itself (which is not a CallToolResult).
     */
    private static ObjectNode callToolResult(TaskRecord.State state) {
        JsonNode stored = FrontJson.parseOrNull(state.resultJson());
        if (state.resultTruncated() && stored != null) {
            ObjectNode result = text("The tool's result (" + stored.path("originalBytes").asLong() + " bytes) was"
                    + " larger than mcp-tasks stores; it begins: " + stored.path("preview").asText(""));
            result.putObject("_meta").putObject("dev.mcptasks/resultTruncated")
                    .put("originalBytes", stored.path("originalBytes").asLong());
            return result;
        }
        if (stored == null) {
            ObjectNode result = FrontJson.object();
            result.putArray("content");
            return result;
        }
        return stored.isObject() ? withoutUpstreamTask(((ObjectNode) stored).deepCopy())
                : text(FrontJson.write(stored));
    }

    /**
     * A 2025 upstream tags its task result with its own task id ({@code _meta} related-task): that id is the
     * upstream's, not the one the gateway handed out, and names a task the caller cannot reach. It is removed; a
     * front that tags results tags them with the gateway's id.
     */
    private static ObjectNode withoutUpstreamTask(ObjectNode result) {
        if (result.get("_meta") instanceof ObjectNode meta) {
            meta.remove(Front2025.RELATED_TASK);
            if (meta.isEmpty()) {
                result.remove("_meta");
            }
        }
        return result;
    }

    private static ObjectNode text(String text) {
        ObjectNode result = FrontJson.object();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return result;
    }

    private static String firstOf(String first, String second, String fallback) {
        return first != null ? first : second != null ? second : fallback;
    }
}
