package dev.mcptasks.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Reading and building {@code tools/call} payloads shared by both drivers. */
final class ToolResults {
    private ToolResults() {}

    /** The user's tool arguments as a JSON object ({@code null} or blank means none). */
    static ObjectNode arguments(String argumentsJson) {
        if (argumentsJson == null || argumentsJson.isBlank()) {
            return Json.object();
        }
        JsonNode parsed;
        try {
            parsed = Json.parse(argumentsJson);
        } catch (JsonProcessingException e) {
            throw RemoteFailures.refused("the tool arguments are not valid JSON: " + e.getOriginalMessage());
        }
        if (parsed == null || !parsed.isObject()) {
            throw RemoteFailures.refused("the tool arguments must be a JSON object");
        }
        return (ObjectNode) parsed;
    }

    static ObjectNode toolCall(String tool, JsonNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return params;
    }

    static boolean isError(JsonNode callToolResult) {
        return callToolResult.path("isError").asBoolean(false);
    }

    /** The text items of a {@code CallToolResult}'s content, joined by newlines; empty when there are none. */
    static String text(JsonNode callToolResult) {
        List<String> parts = new ArrayList<>();
        for (JsonNode item : callToolResult.path("content")) {
            if ("text".equals(item.path("type").asText()) && item.path("text").isTextual()) {
                parts.add(item.path("text").textValue());
            }
        }
        return String.join("\n", parts);
    }

    /** The text of a result, or a fallback naming the tool when it carries none. */
    static String describe(JsonNode callToolResult, String fallback) {
        String text = text(callToolResult);
        return text.isEmpty() ? fallback : text;
    }
}
