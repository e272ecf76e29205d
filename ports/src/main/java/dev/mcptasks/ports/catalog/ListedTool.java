package dev.mcptasks.ports.catalog;

import java.util.Objects;

/**
 * One entry of an upstream server's {@code tools/list}.
 *
 * @param name the tool's name at the upstream server
 * @param toolJson the whole {@code Tool} object as the server sent it (a JSON object: name, title, description,
 *     inputSchema, outputSchema, annotations, execution, _meta), so the gateway can pass schemas on unchanged
 */
public record ListedTool(String name, String toolJson) {
    public ListedTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(toolJson, "toolJson");
    }
}
