package dev.mcptasks.adapters.gateway;

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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exposed tools under their front names, from each upstream's {@code tools/list} kept for a short while. A
 * failed listing is never cached and never reads as an empty list: it is a JSON-RPC error naming the server. One
 * tool that cannot be served (a name outside the MCP charset once prefixed, a definition that is not an object, a
 * front name another tool already has) is left out and logged once, so it never hides the other tools.
 */
final class FrontCatalog {
    private static final Logger LOG = LoggerFactory.getLogger(FrontCatalog.class);
    /** One exposed tool: its front name, where it lives, and the upstream's Tool object renamed. */
    record FrontTool(String frontName, String server, String tool, ObjectNode json) {}

    /** One listing of a server, shared by the callers that asked while it was in flight. */
    private record Listing(long startedNanos, CompletableFuture<List<FrontTool>> tools) {}

    private final ToolCatalog upstream;
    private final Clock clock;
    private final Duration ttl;
    private final Map<String, FrontSettings.ExposedServer> servers = new LinkedHashMap<>();
    private final Map<String, Listing> listings = new ConcurrentHashMap<>();
    /** The tools already logged as left out: a listing is repeated every ttl, its warning is not. */
    private final Set<String> leftOut = ConcurrentHashMap.newKeySet();
    /** Tools are served under their own names (one exposed server), not prefixed with the server's. */
    private final boolean plainNames;

    FrontCatalog(ToolCatalog upstream, Clock clock, FrontSettings settings) {
        this.plainNames = settings.plainToolNames();
        this.upstream = Objects.requireNonNull(upstream, "upstream");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = settings.catalogTtl();
        settings.servers().forEach(server -> servers.put(server.name(), server));
    }

    /** Every exposed tool, servers in configuration order; fails if any server cannot list. */
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
        FrontSettings.ExposedServer server = plainNames ? servers.values().iterator().next()
                : ToolNames.serverOf(frontName).map(servers::get).orElse(null);
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

    private List<FrontTool> convert(FrontSettings.ExposedServer server, List<ListedTool> listed) {
        Map<String, FrontTool> byName = new LinkedHashMap<>();
        for (ListedTool tool : listed) {
            if (!server.exposes(tool.name())) {
                continue;
            }
            String frontName = plainNames ? tool.name() : ToolNames.front(server.name(), tool.name());
            if (!ToolNames.isValidToolName(frontName)) {
                leaveOut(server.name(), tool.name(), "would be served as '" + frontName + "', outside the MCP"
                        + " tool-name charset [A-Za-z0-9_.-] of at most 128 characters");
                continue;
            }
            JsonNode json = FrontJson.parseOrNull(tool.toolJson());
            if (json == null || !json.isObject()) {
                leaveOut(server.name(), tool.name(), "has a definition that is not a JSON object");
                continue;
            }
            ObjectNode renamed = ((ObjectNode) json).deepCopy().put("name", frontName);
            addUnique(byName, new FrontTool(frontName, server.name(), tool.name(), renamed));
        }
        return List.copyOf(new ArrayList<>(byName.values()));
    }

    /** Keeps the first tool of a front name; a later one is left out (only an upstream listing a name twice). */
    private void addUnique(Map<String, FrontTool> byName, FrontTool tool) {
        FrontTool earlier = byName.putIfAbsent(tool.frontName(), tool);
        if (earlier != null && earlier != tool) {
            leaveOut(tool.server(), tool.tool(), "has the front name '" + tool.frontName() + "' of tool '"
                    + earlier.tool() + "' of server '" + earlier.server() + "'");
        }
    }

    private void leaveOut(String server, String tool, String why) {
        if (leftOut.add(server + '\n' + tool)) {
            LOG.warn("gateway: tool '{}' of server '{}' is not served: it {}", printable(tool), server, why);
        }
    }

    /** An upstream's name as one short log-safe line: control characters replaced, at most 80 characters. */
    private static String printable(String name) {
        String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
        return shown.codePoints().map(c -> c < 0x20 || c == 0x7f ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
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
