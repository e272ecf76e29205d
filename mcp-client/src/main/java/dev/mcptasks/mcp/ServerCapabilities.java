package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * What the server advertised in {@code initialize}, reduced to the flags the drivers gate on; {@code raw} keeps the
 * whole capabilities object.
 *
 * @param taskToolCalls {@code tasks.requests.tools.call}: tool calls may be task-augmented
 * @param tasksCancel {@code tasks.cancel}: {@code tasks/cancel} is supported
 * @param tasksList {@code tasks.list}: {@code tasks/list} is supported
 * @param toolsListChanged {@code tools.listChanged}: the server announces tool list changes
 * @param raw the capabilities object as sent
 */
public record ServerCapabilities(boolean taskToolCalls, boolean tasksCancel, boolean tasksList,
        boolean toolsListChanged, JsonNode raw) {

    public static ServerCapabilities from(JsonNode capabilities) {
        JsonNode caps = capabilities == null ? MissingNode.getInstance() : capabilities;
        JsonNode tasks = caps.path("tasks");
        return new ServerCapabilities(
                present(tasks.path("requests").path("tools").path("call")),
                present(tasks.path("cancel")),
                present(tasks.path("list")),
                caps.path("tools").path("listChanged").asBoolean(false),
                caps);
    }

    /**
     * 2026-07-28: {@code extensions["io.modelcontextprotocol/tasks"]} in the {@code server/discover} result, the
     * server's offer of the tasks extension.
     */
    public boolean tasksExtension() {
        return present(raw.path("extensions").path(Envelope.TASKS_EXTENSION));
    }

    private static boolean present(JsonNode node) {
        return !node.isMissingNode() && !node.isNull() && !(node.isBoolean() && !node.booleanValue());
    }
}
