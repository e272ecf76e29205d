package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool from {@code tools/list}.
 *
 * @param name the tool name
 * @param taskSupport {@code execution.taskSupport}: {@code forbidden} (also when absent), {@code optional} or
 *     {@code required}, or whatever unknown value the server sent
 * @param raw the tool object as sent, unknown fields included
 */
public record McpTool(String name, String taskSupport, JsonNode raw) {
    public static final String FORBIDDEN = "forbidden";
    public static final String OPTIONAL = "optional";
    public static final String REQUIRED = "required";

    /** Whether a task-augmented call is allowed. */
    public boolean taskCapable() {
        return OPTIONAL.equals(taskSupport) || REQUIRED.equals(taskSupport);
    }

    static McpTool parse(String serverName, JsonNode tool) {
        JsonNode name = tool == null ? null : tool.get("name");
        if (name == null || !name.isTextual()) {
            throw new McpProtocolException(serverName, "a tool in tools/list has no name: " + tool);
        }
        JsonNode support = tool.path("execution").path("taskSupport");
        return new McpTool(name.textValue(), support.isTextual() ? support.textValue() : FORBIDDEN, tool);
    }
}
