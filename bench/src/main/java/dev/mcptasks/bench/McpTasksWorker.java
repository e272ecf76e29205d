package dev.mcptasks.bench;

import dev.mcptasks.app.assembly.Workers;
import dev.mcptasks.core.runtime.RuntimeMetrics;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjLongConsumer;

/**
 * One worker of the real runtime, built in process the way the app's per-worker wiring builds it (the e2e tests'
 * {@code CrashableWorker} does the same), with the no-op driver as the only driver. Not wrapped in the app's
 * package-private event-logging repository: its events are log lines, off at the bench's WARN level.
 */
final class McpTasksWorker implements AutoCloseable {
    static final String SERVER = "bench";
    static final ServerDirectory SERVERS = ServerDirectory.of(List.of(
            new ServerProfile(SERVER, NoopDriver.NAME, null, null)));

    /**
     * The shipped runtime settings: what {@code serve} runs with when nothing is configured. Every settings choice of
     * the bench goes through here and {@link #withTick}, so a change of the settings record touches one file.
     */
    static RuntimeSettings shipped() {
        return RuntimeSettings.defaults();
    }

    /** {@code settings} with the claim tick forced to {@code tick} (the reference row: a worker that polls). */
    static RuntimeSettings withTick(RuntimeSettings s, Duration tick) {
        return new RuntimeSettings(s.lease(), s.pollInterval(), s.maxConcurrentControlCalls(), s.maxBackoff(),
                s.inputRequiredPoll(), s.degradedAfterErrors(), s.maxResultBytes(), s.drain(), tick,
                s.workerStaleAfter(), s.sinkTimeout());
    }

    /** The settings that shape a burn-down, for the JSON and the table. */
    static String describe(RuntimeSettings s) {
        return "lease " + s.lease().toSeconds() + " s, " + s.maxConcurrentControlCalls() + " slots, tick "
                + s.tickInterval().toMillis() + " ms";
    }

    private final WorkerRuntime runtime;
    private final ExecutorService executor;
    private final String id;

    McpTasksWorker(String id, RuntimeSettings settings, TaskRepository store, Clock clock,
            ObjLongConsumer<TaskId> onSubmit) {
        this(id, settings, store, clock, new NoopDriver(onSubmit));
    }

    /** A worker whose only driver is {@code driver} (it must be named {@link NoopDriver#NAME}). */
    McpTasksWorker(String id, RuntimeSettings settings, TaskRepository store, Clock clock, TaskDriver driver) {
        this.id = id;
        this.executor = Workers.executor("bench-" + id);
        this.runtime = new WorkerRuntime(WorkerId.of(id), settings, store,
                new TaskDriverRegistry(List.of(driver), SERVERS), SERVERS, clock,
                () -> ThreadLocalRandom.current().nextDouble(), executor);
    }

    RuntimeMetrics metrics() {
        return runtime.metrics();
    }

    void start() {
        runtime.start();
    }

    @Override
    public void close() {
        try {
            runtime.stop().get(30, TimeUnit.SECONDS);
            // the stop completes before the executor's last store writes (notification results) are done: let
            // them end before the caller closes the store under them
            executor.shutdown();
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                System.err.println("bench: worker " + id + " still had work after 10 s; abandoned");
            }
        } catch (Exception e) {
            System.err.println("bench: worker " + id + " did not stop cleanly: " + e);
        } finally {
            executor.shutdownNow();
        }
    }
}
