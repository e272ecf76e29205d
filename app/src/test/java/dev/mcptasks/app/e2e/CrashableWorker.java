package dev.mcptasks.app.e2e;

import dev.mcptasks.app.assembly.Workers;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One {@code serve} worker built in process from the app's per-worker wiring (its own MCP sessions, hence its own
 * stdio server child), writing through a switch that can kill it abruptly, and recording every control claim it
 * takes. After {@link #crash()} nothing reaches the store: no release, no drain, no deregistration, as after
 * {@code kill -9}.
 */
final class CrashableWorker {
    private final WorkerId id;
    private final McpSessions sessions;
    private final ExecutorService executor;
    private final WorkerRuntime runtime;
    private final ConcurrentLinkedQueue<Claim> claims = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<TaskId> diedMidSubmit = new CompletableFuture<>();
    private volatile boolean dieAtNextSubmitAttempt;
    private volatile boolean crashed;

    CrashableWorker(String id, RuntimeSettings settings, TaskRepository store, AppConfig config,
            Collection<McpTransportFactory> factories, Clock clock) {
        this.id = WorkerId.of(id);
        this.sessions = Workers.sessions(config, factories, clock);
        this.executor = Workers.executor("e2e-" + id);
        this.runtime = new WorkerRuntime(this.id, settings, switched(store), Workers.drivers(config, sessions),
                config.serverDirectory(), clock, () -> ThreadLocalRandom.current().nextDouble(), executor);
    }

    WorkerId id() {
        return id;
    }

    /** Every control claim this worker has taken so far, in order. */
    List<Claim> claims() {
        return List.copyOf(claims);
    }

    /**
     * Arms a death at the worst moment of the next submission: right after its attempt is durably recorded, before
     * anything is sent or any outcome can be written.
     */
    void dieAtNextSubmitAttempt() {
        dieAtNextSubmitAttempt = true;
    }

    /** The task whose submission the worker died in, once it has. */
    TaskId awaitDiedMidSubmit(Duration timeout) throws Exception {
        return diedMidSubmit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    void start() {
        runtime.start();
    }

    /** One control-loop pass now (for a worker built with a tick interval too long to tick by itself). */
    void tick() {
        runtime.tick();
    }

    /**
     * Dies mid-flight: the store refuses everything from now on (heartbeats stop, its claims stay until their leases
     * expire) and its stdio server child goes away with the tasks it held.
     */
    void crash() {
        crashed = true;
        runtime.stop();
        sessions.close();
    }

    /** A clean stop (drain, release, deregister) unless it crashed; then the sessions and the executor end. */
    void stop() throws Exception {
        try {
            if (!crashed) {
                runtime.stop().get(30, TimeUnit.SECONDS);
            }
        } finally {
            sessions.close();
            executor.shutdownNow();
        }
    }

    private TaskRepository switched(TaskRepository store) {
        return (TaskRepository) Proxy.newProxyInstance(TaskRepository.class.getClassLoader(),
                new Class<?>[] {TaskRepository.class}, (proxy, method, args) -> {
                    if (crashed) {
                        throw new RepositoryUnavailableException("worker " + id + " crashed", null);
                    }
                    Object result;
                    try {
                        result = method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (dieAtNextSubmitAttempt && method.getName().equals("recordSubmitAttempt")
                            && Boolean.TRUE.equals(result)) {
                        crashed = true;
                        diedMidSubmit.complete(((Claim) args[0]).taskId());
                        throw new RepositoryUnavailableException("worker " + id + " crashed", null);
                    }
                    if (method.getName().equals("claimControl")) {
                        for (Object claimed : (List<?>) result) {
                            claims.add(((ClaimedTask) claimed).claim());
                        }
                    }
                    return result;
                });
    }
}
