package dev.mcptasks.mcp;

import dev.mcptasks.ports.catalog.ListedTool;
import dev.mcptasks.ports.catalog.ToolCatalog;
import dev.mcptasks.ports.catalog.UpstreamUnavailableException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The {@link ToolCatalog} port over the worker's MCP sessions: the gateway lists an upstream server's tools through
 * the same session (and its cache, dropped on {@code notifications/tools/list_changed}) that drives its tasks.
 */
public final class UpstreamToolCatalog implements ToolCatalog {
    private final McpSessions sessions;

    public UpstreamToolCatalog(McpSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public CompletableFuture<List<ListedTool>> listTools(String serverName) {
        McpSession session;
        try {
            session = sessions.session(serverName).orElse(null);
        } catch (IllegalStateException e) {
            return CompletableFuture.failedFuture(unavailable(serverName, e));
        }
        if (session == null) {
            return CompletableFuture.failedFuture(
                    new UpstreamUnavailableException("server '" + serverName + "' is not configured"));
        }
        return session.tools()
                .<List<ListedTool>>thenApply(tools -> tools.values().stream()
                        .map(tool -> new ListedTool(tool.name(), tool.raw().toString())).toList())
                .exceptionallyCompose(error -> CompletableFuture.failedFuture(unavailable(serverName, error)));
    }

    private static UpstreamUnavailableException unavailable(String serverName, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getMessage().lines().findFirst().orElse("");
        return new UpstreamUnavailableException("server '" + serverName + "' could not list its tools: " + detail,
                cause);
    }
}
