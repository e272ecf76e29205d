package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker one of whose threads died of an error does not stay registered and live: it stops, deregisters and
 * exits with {@link WorkerProcess#EXIT_INTERNAL_ERROR}, naming the thread (the exit is captured, not taken).
 */
class InternalThreadDeathTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    private ReferenceServer server;
    private Application app;

    @AfterEach
    void close() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
        if (app != null) {
            app.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anErrorKillingAThreadStopsDeregistersAndExitsNonZero() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults());
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", server.startHttp(0).toString());
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).parse("death.json",
                JSON.writeValueAsString(root));
        app = AppRoot.production().openWorker(config, WorkerId.of("doomed"));
        WorkerProcess process = new WorkerProcess(app);
        CompletableFuture<Integer> exited = new CompletableFuture<>();
        process.exitOnInternalThreadDeath(exited::complete);
        process.start();
        TaskRepository store = app.get(TaskRepository.class);
        assertThat(store.workers()).extracting(worker -> worker.id().value()).contains("doomed");

        Thread internal = new Thread(() -> {
            throw new OutOfMemoryError("simulated: Java heap space");
        }, "sqlite-work-arrivals test");
        internal.start();
        internal.join();

        assertThat(exited.get(30, TimeUnit.SECONDS)).isEqualTo(WorkerProcess.EXIT_INTERNAL_ERROR);
        assertThat(store.workers()).extracting(worker -> worker.id().value()).doesNotContain("doomed");
        assertThat(process.runtime().stop()).as("the runtime was stopped: no more claims").isDone();
    }

    @Test
    void anExceptionEndingAThreadIsOnlyLogged() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults());
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("mcpServers").putObject("ref").put("url", server.startHttp(0).toString());
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).parse("alive.json",
                JSON.writeValueAsString(root));
        app = AppRoot.production().openWorker(config, WorkerId.of("alive"));
        WorkerProcess process = new WorkerProcess(app);
        CompletableFuture<Integer> exited = new CompletableFuture<>();
        process.exitOnInternalThreadDeath(exited::complete);
        process.start();

        Thread thread = new Thread(() -> {
            throw new IllegalStateException("a task's own failure");
        }, "pool-thread");
        thread.start();
        thread.join();

        assertThat(exited).isNotDone();
        assertThat(app.get(TaskRepository.class).workers()).extracting(worker -> worker.id().value())
                .contains("alive");
        process.stop();
    }
}
