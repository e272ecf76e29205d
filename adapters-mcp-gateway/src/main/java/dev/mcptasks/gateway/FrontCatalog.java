package dev.mcptasks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.catalog.ListedTool;
import dev.mcptasks.ports.catalog.ToolCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exposed tools under their front names, from each upstream's {@code tools/list} kept for a short while. A
 * failed listing is never cached and never reads as an empty list: it is a JSON-RPC error naming the server.
 */
final class FrontCatalog {
    /** One exposed tool: its front name, where it lives, and the upstream's Tool object renamed. */
    record FrontTool(String frontName, String server, String tool, ObjectNode json) {}

    /** One listing of a server, shared by the callers that asked while it was in flight. */
    private record Listing(long startedNanos, CompletableFuture<List<FrontTool>> tools) {}

    private final ToolCatalog upstream;
    private final Clock clock;
    private final Duration ttl;
    private final Map<String, FrontSettings.ExposedServer> servers = new LinkedHashMap<>();
    private final Map<String, Listing> listings = new ConcurrentHashMap<>();

    FrontCatalog(ToolCatalog upstream, Clock clock, FrontSettings settings) {
        this.upstream = Objects.requireNonNull(upstream, "upstream");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = settings.catalogTtl();
        settings.servers().forEach(server -> servers.put(server.name(), server));
    }

    /** Every exposed tool, servers in configuration order; fails if any server cannot list or two names collide. */
    CompletableFuture<List<FrontTool>> all() {
        List<CompletableFuture<List<FrontTool>>> lists = servers.values().stream().map(this::tools).toList();
        return CompletableFuture.allOf(lists.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, FrontTool> byName = new LinkedHashMap<>();
            for (CompletableFuture<List<FrontTool>> list : lists) {
                list.join().forEach(tool -> addUnique(byName, tool));
            }
            return List.copyOf(byName.values());
        });
    }

    /** The tool a front name stands for; an unknown name (or a tool not exposed) is a -32602. */
    CompletableFuture<FrontTool> resolve(String frontName) {
        FrontSettings.ExposedServer server = ToolNames.serverOf(frontName).map(servers::get).orElse(null);
        if (server == null) {
            return CompletableFuture.failedFuture(unknownTool(frontName));
        }
        return tools(server).thenApply(tools -> tools.stream().filter(tool -> tool.frontName().equals(frontName))
                .findFirst().orElseThrow(() -> unknownTool(frontName)));
    }

    private CompletableFuture<List<FrontTool>> tools(FrontSettings.ExposedServer server) {
        Listing listing = listings.compute(server.name(), (name, current) -> current != null && fresh(current)
                ? current : new Listing(clock.nanoTime(), load(server)));
        // a failure is forgotten at once so the next caller asks again; only this listing is removed, not a newer one
        listing.tools().whenComplete((tools, error) -> {
            if (error != null) {
                listings.remove(server.name(), listing);
            }
        });
        return listing.tools();
    }

    private boolean fresh(Listing listing) {
        return !listing.tools().isDone() || clock.nanoTime() - listing.startedNanos() < ttl.toNanos();
    }

    private CompletableFuture<List<FrontTool>> load(FrontSettings.ExposedServer server) {
        CompletableFuture<List<ListedTool>> listed;
        try {
            listed = upstream.listTools(server.name());
        } catch (RuntimeException e) {
            listed = CompletableFuture.failedFuture(e);
        }
        return listed.handle((tools, error) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                throw new FrontError(FrontError.INTERNAL, "upstream server '" + server.name()
                        + "' cannot list its tools: " + oneLine(cause));
            }
            return convert(server, tools);
        });
    }

    private static List<FrontTool> convert(FrontSettings.ExposedServer server, List<ListedTool> listed) {
        Map<String, FrontTool> byName = new LinkedHashMap<>();
        for (ListedTool tool : listed) {
            if (!server.exposes(tool.name())) {
                continue;
            }
            String frontName = ToolNames.front(server.name(), tool.name());
            if (!ToolNames.isValidToolName(frontName)) {
                throw new FrontError(FrontError.INTERNAL, "tool '" + tool.name() + "' of server '" + server.name()
                        + "' would be served as '" + frontName + "', outside the MCP tool-name charset"
                        + " [A-Za-z0-9_.-] of at most 128 characters");
            }
            JsonNode json = FrontJson.parseOrNull(tool.toolJson());
            if (json == null || !json.isObject()) {
                throw new FrontError(FrontError.INTERNAL, "upstream server '" + server.name() + "' listed tool '"
                        + tool.name() + "' whose definition is not a JSON object");
            }
            ObjectNode renamed = ((ObjectNode) json).deepCopy().put("name", frontName);
            addUnique(byName, new FrontTool(frontName, server.name(), tool.name(), renamed));
        }
        return List.copyOf(new ArrayList<>(byName.values()));
    }

    private static void addUnique(Map<String, FrontTool> byName, FrontTool tool) {
        FrontTool earlier = byName.putIfAbsent(tool.frontName(), tool);
        if (earlier != null) {
            throw new FrontError(FrontError.INTERNAL, "tools '" + earlier.tool() + "' of server '" + earlier.server()
                    + "' and '" + tool.tool() + "' of server '" + tool.server() + "' both map to the front name '"
                    + tool.frontName() + "'");
        }
    }

    private static FrontError unknownTool(String frontName) {
        return FrontError.invalidParams("Unknown tool: " + frontName);
    }

    static String oneLine(Throwable error) {
        String message = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
