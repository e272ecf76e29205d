package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ServerConfig;
import dev.mcptasks.app.runtime.RuntimeSettings;
import dev.mcptasks.app.service.ServerDirectory;
import dev.mcptasks.app.service.TaskDriverRegistry;
import dev.mcptasks.app.runtime.WorkerRuntime;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.mcp.NativeTasksDriver;
import dev.mcptasks.mcp.OrdinaryToolsDriver;
import dev.mcptasks.mcp.OrdinaryToolset;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Binds one worker: its id, one MCP session per configured server, the two drivers, an executor for control calls
 * and the {@link WorkerRuntime}. Transport factories come from the transport modules' map binder.
 */
public final class WorkerModule extends AbstractModule {
    /** Sent as {@code clientInfo.version} in the MCP handshake. */
    public static final String CLIENT_VERSION = "0.1.0";

    private final WorkerId worker;

    public WorkerModule(WorkerId worker) {
        this.worker = Objects.requireNonNull(worker, "worker");
    }

    @Override
    protected void configure() {
        bind(WorkerId.class).toInstance(worker);
        // Declares the map even when no transport module contributes (tests with fake drivers).
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class);
    }

    @Provides
    @Singleton
    McpSessions sessions(AppConfig config, Map<String, McpTransportFactory> factories, Clock clock) {
        return new McpSessions(config.servers().values().stream().map(ServerConfig::toMcpSettings).toList(),
                factories.values(), clock, CLIENT_VERSION);
    }

    @Provides
    @Singleton
    TaskDriverRegistry drivers(AppConfig config, McpSessions sessions, ServerDirectory servers) {
        Map<String, OrdinaryToolset> toolsets = new LinkedHashMap<>();
        for (ServerConfig server : config.servers().values()) {
            if (server.toolset() != null) {
                toolsets.put(server.name(), new OrdinaryToolset(server.toolset().submit(),
                        server.toolset().status(), server.toolset().cancel()));
            }
        }
        return new TaskDriverRegistry(List.of(new NativeTasksDriver(sessions),
                new OrdinaryToolsDriver(sessions, toolsets)), servers);
    }

    @Provides
    @Singleton
    ExecutorService executor() {
        // Unbounded on purpose: the runtime bounds its calls by capacity slots, and a hung renewal must never wait
        // for a thread behind the calls it is meant to police.
        AtomicInteger count = new AtomicInteger();
        return Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-worker-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Provides
    @Singleton
    WorkerRuntime runtime(RuntimeSettings settings, TaskRepository repository, TaskDriverRegistry drivers,
            ServerDirectory servers, Clock clock, RandomSource random, ExecutorService executor) {
        return new WorkerRuntime(worker, settings, repository, drivers, servers, clock, random, executor);
    }
}
