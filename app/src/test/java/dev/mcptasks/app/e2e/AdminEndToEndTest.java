package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin listener of the production assembly: a worker over a SQLite file runs tasks against the reference
 * server while {@code /metrics} is scraped and its counters move; {@code /readyz} names the store once it is gone,
 * {@code /healthz} the thread that died; a listener beyond loopback without a token is refused at start.
 */
class AdminEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path DOCS = Path.of("..", "docs");

    @TempDir
    Path dir;

    private final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    private final HttpClient http = HttpClient.newHttpClient();
    private ReferenceServer server;
    private Application app;
    private WorkerProcess process;
    private AdminListener admin;

    @AfterEach
    void close() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
        if (admin != null) {
            admin.close();
        }
        if (process != null) {
            process.stop();
        }
        if (app != null) {
            app.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private AppConfig config(ObjectNode admin) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("drainSeconds", 1);
        if (server != null) {
            root.putObject("mcpServers").putObject("ref").put("url", server.startHttp(0).toString());
        }
        root.set("admin", admin);
        return new ConfigLoader(Map.<String, String>of()::get, dir).parse("admin.json", JSON.writeValueAsString(root));
    }

    private void startWorker(String id) throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults());
        app = AppRoot.production().openWorker(config(JSON.createObjectNode().put("port", 0)), WorkerId.of(id));
        process = new WorkerProcess(app);
        admin = AdminModules.start(app).orElseThrow();
        process.start();
    }

    private HttpResponse<String> get(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + admin.address().getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsMoveWhileTasksRunAndTheProbesAnswer() throws Exception {
        startWorker("metered");
        assertThat(get("/healthz").statusCode()).isEqualTo(200);

        TaskService tasks = app.get(TaskService.class);
        TaskRepository store = app.get(TaskRepository.class);
        List<TaskId> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(tasks.submitFor("alice", "ref", "work", "{\"durationMs\": 50, \"result\": \"r" + i + "\"}", null)
                    .id());
        }
        for (TaskId id : ids) {
            AwaitRow.until(store, id, WAIT, row -> row.status() == TaskStatus.COMPLETED, row -> row.status());
        }

        String metrics = new MetricsScrape(admin.address().getPort()).until(body -> body.contains(
                "mcp_tasks_finished_total{outcome=\"completed\",principal=\"alice\",server=\"ref\",tool=\"work\"} 3.0"));
        assertThat(metrics)
                .contains("mcp_tasks_submitted_total{principal=\"alice\",server=\"ref\",tool=\"work\"} 3.0")
                .contains("mcp_tasks_tasks{server=\"ref\",status=\"completed\"} 3.0")
                .contains("mcp_tasks_tasks{server=\"ref\",status=\"pending\"} 0.0")
                .contains("mcp_tasks_oldest_due_age_seconds{phase=\"submit\"}")
                .contains("mcp_tasks_claim_scan_seconds_count{phase=\"submit\"}")
                .contains("mcp_tasks_upstream_request_seconds_count{method=\"tools/call\",server=\"ref\"} 3\n")
                .contains("mcp_tasks_notification_deliveries_total{outcome=\"delivered\"}")
                .contains("mcp_tasks_outbox_backlog")
                .contains("mcp_tasks_worker_slots ")
                .contains("jvm_memory_used_bytes")
                .contains("netty_allocator_memory_used")
                .contains("hikaricp_connections_active{pool=\"sqlite-writer\"}")
                .contains("hikaricp_connections_pending{pool=\"sqlite-reader\"}");
        assertThat(metrics).doesNotContain(ids.get(0).value());
        assertThat(MetricsScrape.metricNames(metrics)).as("every exposed name is documented")
                .isSubsetOf(MetricsScrape.metricNames(Files.readString(DOCS.resolve("operations-metrics.md"))));
        assertThat(get("/readyz").body()).isEqualTo("{\"ok\":true}\n");
        assertThat(get("/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void readinessNamesTheStoreWhenItIsGoneAndAnswersInTime() throws Exception {
        startWorker("unready");
        assertThat(get("/readyz").statusCode()).isEqualTo(200);

        app.get(CloseableTaskRepository.class).close();

        long start = System.nanoTime();
        HttpResponse<String> ready = get("/readyz");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).startsWith("{\"ok\":false,\"check\":\"store\",\"reason\":\"store unavailable: ")
                .hasLineCount(1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(get("/healthz").statusCode()).as("alive, only not ready").isEqualTo(200);
    }

    @Test
    void healthFailsNamingTheThreadOnceAnInternalThreadDied() throws Exception {
        startWorker("doomed");
        CompletableFuture<Integer> exited = new CompletableFuture<>();
        process.exitOnInternalThreadDeath(exited::complete);
        assertThat(get("/healthz").statusCode()).isEqualTo(200);

        Thread internal = new Thread(() -> {
            throw new OutOfMemoryError("simulated");
        }, "admin-test-internal");
        internal.start();
        internal.join();

        HttpResponse<String> health = get("/healthz");
        assertThat(health.statusCode()).isEqualTo(503);
        assertThat(health.body()).contains("\"check\":\"threads\"", "internal thread 'admin-test-internal' died of"
                + " java.lang.OutOfMemoryError: simulated");
        assertThat(exited.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                .isEqualTo(WorkerProcess.EXIT_INTERNAL_ERROR);
    }

    /** The dashboard renders only documented names (the exposed ones are checked against the same list). */
    @Test
    void theDashboardUsesOnlyDocumentedMetricNames() throws Exception {
        Set<String> documented = MetricsScrape.metricNames(Files.readString(DOCS.resolve("operations-metrics.md")));
        Set<String> charted = MetricsScrape.metricNames(Files.readString(DOCS.resolve("grafana/mcp-tasks.json")));
        assertThat(charted).isNotEmpty().isSubsetOf(documented);
    }

    @Test
    void aListenerBeyondLoopbackWithoutATokenIsRefusedInOneLine() {
        assertThatThrownBy(() -> config(JSON.createObjectNode().put("host", "0.0.0.0")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("admin.json: admin.host is '0.0.0.0', not a loopback address: configure admin.token (or"
                        + " admin.users) to serve the admin listener beyond this machine");
    }
}
