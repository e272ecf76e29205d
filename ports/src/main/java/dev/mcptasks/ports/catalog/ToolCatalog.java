package dev.mcptasks.ports.catalog;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The tools an upstream MCP server lists now, for the gateway, which serves them under its own names. An adapter
 * asks the server ({@code tools/list}, every page) over whatever transport the server is configured with.
 */
public interface ToolCatalog {

    /**
     * The server's tools in the order it lists them.
     *
     * @param serverName a configured server
     * @return completes with the tools, or exceptionally with an {@link UpstreamUnavailableException} when the server
     *     cannot be reached or answers with something that is not a tool list
     */
    CompletableFuture<List<ListedTool>> listTools(String serverName);
}
