package dev.mcptasks.app.assembly;

import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ServerConfig;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.mcp.NativeTasksDriver;
import dev.mcptasks.mcp.OrdinaryToolsDriver;
import dev.mcptasks.mcp.OrdinaryToolset;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.trace.Tracing;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** The per-worker parts built from the configuration, shared by {@link WorkerModule} and the in-process demo. */
public final class Workers {
    /** Sent as {@code clientInfo.version} in the MCP handshake. */
    public static final String CLIENT_VERSION = "0.1.0";

    private Workers() {}

    /** One (lazily connected) MCP session per configured server. */
    public static McpSessions sessions(AppConfig config, Collection<McpTransportFactory> factories, Clock clock) {
        return sessions(config, factories, clock, dev.mcptasks.ports.metrics.Metrics.NONE);
    }

    /** The sessions of the configured servers, telling {@code metrics} about every upstream request. */
    public static McpSessions sessions(AppConfig config, Collection<McpTransportFactory> factories, Clock clock,
            dev.mcptasks.ports.metrics.Metrics metrics) {
        return sessions(config, factories, clock, metrics, Tracing.NONE);
    }

    /** The sessions of the configured servers, with {@code tracing} for the requests of traced operations too. */
    public static McpSessions sessions(AppConfig config, Collection<McpTransportFactory> factories, Clock clock,
            dev.mcptasks.ports.metrics.Metrics metrics, Tracing tracing) {
        return new McpSessions(config.servers().values().stream().map(ServerConfig::toMcpSettings).toList(),
                factories, clock, CLIENT_VERSION, dev.mcptasks.mcp.DetectedTransports.PROCESS, metrics, tracing);
    }

    /** Both drivers over the worker's sessions, with each ordinary-tools server's toolset. */
    public static TaskDriverRegistry drivers(AppConfig config, McpSessions sessions) {
        Map<String, OrdinaryToolset> toolsets = new LinkedHashMap<>();
        for (ServerConfig server : config.servers().values()) {
            if (server.toolset() != null) {
                toolsets.put(server.name(), new OrdinaryToolset(server.toolset().submit(),
                        server.toolset().status(), server.toolset().cancel()));
            }
        }
        return new TaskDriverRegistry(List.of(new NativeTasksDriver(sessions),
                new OrdinaryToolsDriver(sessions, toolsets)), config.serverDirectory());
    }

    /**
     * The executor of control calls. Unbounded on purpose: the runtime bounds its calls by capacity slots, and a hung
     * renewal must never wait for a thread behind the calls it is meant to police.
     */
    public static ExecutorService executor(String threadPrefix) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, threadPrefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }
}
