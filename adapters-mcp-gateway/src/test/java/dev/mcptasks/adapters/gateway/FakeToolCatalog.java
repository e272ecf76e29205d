package dev.mcptasks.adapters.gateway;

import dev.mcptasks.ports.catalog.ListedTool;
import dev.mcptasks.ports.catalog.ToolCatalog;
import dev.mcptasks.ports.catalog.UpstreamUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Upstream tool lists set by the test; a server without one is unreachable. Counts the listings asked for. */
final class FakeToolCatalog implements ToolCatalog {
    private final Map<String, List<ListedTool>> lists = new ConcurrentHashMap<>();
    private final AtomicInteger asked = new AtomicInteger();

    FakeToolCatalog set(String server, ListedTool... tools) {
        lists.put(server, List.of(tools));
        return this;
    }

    FakeToolCatalog unreachable(String server) {
        lists.remove(server);
        return this;
    }

    int asked() {
        return asked.get();
    }

    @Override
    public CompletableFuture<List<ListedTool>> listTools(String serverName) {
        asked.incrementAndGet();
        List<ListedTool> tools = lists.get(serverName);
        if (tools == null) {
            return CompletableFuture.failedFuture(new UpstreamUnavailableException("server '" + serverName
                    + "': connection refused"));
        }
        return CompletableFuture.completedFuture(new ArrayList<>(tools));
    }

    /** A tool with a small schema and, optionally, the upstream's execution.taskSupport. */
    static ListedTool tool(String name, String taskSupport) {
        String execution = taskSupport == null ? "" : ",\"execution\":{\"taskSupport\":\"" + taskSupport + "\"}";
        return new ListedTool(name, "{\"name\":\"" + name + "\",\"description\":\"does " + name + "\","
                + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}" + execution
                + "}");
    }
}
