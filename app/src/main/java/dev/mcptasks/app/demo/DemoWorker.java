package dev.mcptasks.app.demo;

import dev.mcptasks.app.assembly.Workers;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.metrics.MeteringRepository;
import dev.mcptasks.core.metrics.MetricsListener;
import dev.mcptasks.core.runtime.RuntimeListener;
import dev.mcptasks.core.runtime.RuntimeMetrics;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Collection;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One in-process worker of the demo with its own MCP sessions (so its own stdio server child), executor and runtime,
 * writing through a crash switch.
 */
final class DemoWorker {
    private final WorkerId id;
    private final CrashSwitchRepository store;
    private final McpSessions sessions;
    private final ExecutorService executor;
    private final WorkerRuntime runtime;
    private volatile boolean crashed;

    /** @param metrics told what the worker does, as a {@code serve} worker tells them (claims, renewals, calls) */
    DemoWorker(WorkerId id, RuntimeSettings settings, TaskRepository repository, AppConfig config,
            Collection<McpTransportFactory> factories, Clock clock, Metrics metrics) {
        this.id = id;
        // metered below the crash switch: only what reached the store counts
        this.store = new CrashSwitchRepository(new MeteringRepository(repository, metrics, clock));
        this.sessions = Workers.sessions(config, factories, clock, metrics);
        this.executor = Workers.executor("demo-" + id);
        this.runtime = new WorkerRuntime(id, settings, store, Workers.drivers(config, sessions),
                config.serverDirectory(), clock, () -> ThreadLocalRandom.current().nextDouble(), executor,
                new MetricsListener(metrics, RuntimeListener.NONE));
    }

    WorkerId id() {
        return id;
    }

    boolean crashed() {
        return crashed;
    }

    RuntimeMetrics metrics() {
        return runtime.metrics();
    }

    void start() {
        runtime.start();
    }

    /**
     * Dies mid-flight: from now on nothing reaches the store, and its MCP endpoints go away with it (its stdio server
     * child exits, so tasks created there are gone). Its claims stay in the store until their leases expire. Its
     * executor is left running: the runtime's leftover timers hand work to it until they find nothing to do, and
     * everything that work tries to write is refused by the crash switch.
     */
    void crash() {
        crashed = true;
        store.crash();
        runtime.stop();
        sessions.close();
    }

    /** A clean stop: drain, release, deregister, then close the sessions. */
    void stop(long boundMillis) throws InterruptedException {
        if (!crashed) {
            try {
                runtime.stop().get(boundMillis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                // reported by the invariant check if it left anything behind
            }
        }
        if (!crashed) {
            executor.shutdown();
        }
        sessions.close();
    }
}
