package dev.mcptasks.examples;

import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.postgres.PostgresTaskRepositories;
import dev.mcptasks.core.runtime.RuntimeListener;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.core.system.SystemClock;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpServerSettings;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.mcp.NativeTasksDriver;
import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A deployment of mcp-tasks assembled by hand, without the {@code app} module: PostgreSQL as the store, one MCP server
 * reached over Streamable HTTP (server {@value #UPSTREAM}, driven as native MCP tasks), a custom driver next to it
 * (server {@value #LOCAL}, {@link DigestDriver}) and a custom notification sink. {@link #start} is the whole
 * assembly; {@link ExampleMain} runs it from the command line.
 */
public final class CustomDeployment implements AutoCloseable {
    /** The MCP server's name in this deployment. */
    public static final String UPSTREAM = "upstream";
    /** The server name whose tasks the {@link DigestDriver} runs. */
    public static final String LOCAL = "local";
    /** Beyond the drain, stopping only releases claims and deregisters: short store writes. */
    private static final Duration STOP_MARGIN = Duration.ofSeconds(10);

    private final TaskService tasks;
    private final WorkerId worker;
    /** What {@link #start} opened, last first: closing walks it from the runtime back to the clock. */
    private final Deque<AutoCloseable> opened;

    private CustomDeployment(TaskService tasks, WorkerId worker, Deque<AutoCloseable> opened) {
        this.tasks = tasks;
        this.worker = worker;
        this.opened = opened;
    }

    /**
     * Opens the store (migrating its schema), starts one worker and returns the service to submit through.
     *
     * @param database where the tasks live; any number of deployments may share it
     * @param mcpEndpoint the Streamable HTTP endpoint of the MCP server called {@value #UPSTREAM}
     * @param sink where the worker delivers attention events (completed, failed, cancelled, input required)
     */
    public static CustomDeployment start(PostgresSettings database, URI mcpEndpoint, NotificationSink sink) {
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        try {
            SystemClock clock = push(opened, new SystemClock());
            RandomIdGenerator ids = new RandomIdGenerator(clock);
            CloseableTaskRepository store = push(opened,
                    PostgresTaskRepositories.open(database, clock, ids, FencedWriteHook.NONE));

            ServerDirectory servers = ServerDirectory.of(List.of(
                    new ServerProfile(UPSTREAM, NativeTasksDriver.NAME, null, SubmitPolicy.AT_MOST_ONCE),
                    new ServerProfile(LOCAL, DigestDriver.NAME, null, SubmitPolicy.AT_LEAST_ONCE)));
            McpSessions sessions = push(opened, new McpSessions(
                    List.of(McpServerSettings.of(McpServerSpec.http(UPSTREAM, mcpEndpoint, Map.of()))),
                    List.of(new HttpTransportFactory()), clock, "mcp-tasks-example"));
            TaskDriverRegistry drivers = new TaskDriverRegistry(
                    List.of(new NativeTasksDriver(sessions), new DigestDriver()), servers);

            // unbounded on purpose: the runtime bounds its calls by its slots, and a renewal must never queue
            ExecutorService calls = Executors.newCachedThreadPool(CustomDeployment::daemon);
            opened.push(calls::shutdownNow);
            RuntimeSettings settings = RuntimeSettings.defaults();
            WorkerId worker = WorkerId.of("example-" + ProcessHandle.current().pid() + "-" + ids.newClaimToken().value());
            WorkerRuntime runtime = new WorkerRuntime(worker, settings, store, drivers, servers, clock,
                    () -> ThreadLocalRandom.current().nextDouble(), calls, sink, RuntimeListener.NONE);
            // stopping drains the calls in flight, then releases the claims still held, due at once for any worker;
            // pushed first, so a start that fails half-way is stopped as well
            opened.push(() -> runtime.stop().get(settings.drain().plus(STOP_MARGIN).toMillis(), TimeUnit.MILLISECONDS));
            runtime.start();
            return new CustomDeployment(new TaskService(store, servers, ids), worker, opened);
        } catch (RuntimeException e) {
            closeAll(opened, e);
            throw e;
        }
    }

    /** Submits, finds, lists and cancels tasks: every call only writes or reads the store. */
    public TaskService tasks() {
        return tasks;
    }

    public WorkerId workerId() {
        return worker;
    }

    /** Stops the worker (tasks it did not finish stay in the store for the next one), then closes what it used. */
    @Override
    public void close() {
        RuntimeException failure = new IllegalStateException("closing the example deployment failed");
        closeAll(opened, failure);
        if (failure.getSuppressed().length > 0) {
            throw failure;
        }
    }

    /** Closes everything, last opened first, going on after a failure; failures are added to {@code failure}. */
    private static void closeAll(Deque<AutoCloseable> opened, RuntimeException failure) {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                failure.addSuppressed(e);
            }
        }
    }

    private static <T extends AutoCloseable> T push(Deque<AutoCloseable> opened, T resource) {
        opened.push(resource);
        return resource;
    }

    private static Thread daemon(Runnable runnable) {
        Thread thread = new Thread(runnable, "example-call");
        thread.setDaemon(true);
        return thread;
    }
}
