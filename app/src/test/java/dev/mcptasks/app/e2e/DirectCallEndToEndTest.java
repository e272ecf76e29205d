package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Direct calls under the real runtime and assembly (SQLite, the reference server over Streamable HTTP, its
 * {@code work_optional} tool called plainly under {@code "callMode": "direct"}): the runtime holds the submit claim
 * for as long as the call runs, renewing it, and stores the result with its last write; a worker that dies with
 * the call in flight leaves the decision to {@code submitPolicy}. The tool calls that reach the server are counted
 * on the wire.
 */
class DirectCallEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** A 4 s lease renewed every third of it, and a worker stale after 3 s. */
    private static final RuntimeSettings TICKING = new RuntimeSettings(Duration.ofSeconds(4), Duration.ofSeconds(1),
            8, Duration.ofSeconds(4), Duration.ofSeconds(1), 3, 8L * 1024 * 1024, Duration.ofSeconds(2),
            Duration.ofMillis(250), Duration.ofSeconds(3));
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private ReferenceServer server;
    private Application app;
    private TaskRepository store;
    private TaskService service;
    private Clock clock;
    private Collection<McpTransportFactory> factories;
    private final AtomicInteger toolCalls = new AtomicInteger();
    private final List<CrashableWorker> workers = new ArrayList<>();

    private AppConfig open(String submitPolicy) throws Exception {
        return open(submitPolicy, null);
    }

    private AppConfig open(String submitPolicy, Integer directCallTimeoutSeconds) throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults());
        URI endpoint = server.startHttp(0);
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString())
                .put("protocol", "2025-11-25").put("callMode", "direct").put("submitPolicy", submitPolicy);
        if (directCallTimeoutSeconds != null) {
            root.with("mcpServers").with("ref").put("directCallTimeoutSeconds", directCallTimeoutSeconds);
        }
        Path file = dir.resolve("config.json");
        Files.writeString(file, JSON.writeValueAsString(root));
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).load(file);
        app = AppRoot.production().openClient(config);
        store = app.get(TaskRepository.class);
        service = app.get(TaskService.class);
        clock = app.get(Clock.class);
        factories = app.injector().getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}))
                .values().stream().map(this::counting).toList();
        return config;
    }

    @AfterEach
    void close() throws Exception {
        try {
            for (CrashableWorker worker : workers) {
                worker.stop();
            }
        } finally {
            if (app != null) {
                app.close();
            }
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void aDirectCallLongerThanThreeLeasesCompletesUnderOneRenewedClaim() throws Exception {
        AppConfig config = open("atMostOnce");
        CrashableWorker a = worker("worker-a", config);
        CrashableWorker b = worker("worker-b", config);
        a.start();
        b.start();
        TaskId task = submit("{\"durationMs\": 14000, \"result\": \"a long direct call\"}");

        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());

        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).contains("a long direct call");
        assertThat(done.state().remoteTaskId()).isNull();
        assertThat(toolCalls).hasValue(1);
        // one claim for the whole call: had a renewal been missed, the other worker would have taken the row
        List<Claim> claims = new ArrayList<>(claimsOf(a, task));
        claims.addAll(claimsOf(b, task));
        assertThat(claims).hasSize(1);
    }

    @Test
    void aWorkerKilledMidCallEndsSubmitOutcomeUnknownUnderAtMostOnce() throws Exception {
        AppConfig config = open("atMostOnce");
        CrashableWorker a = worker("worker-a", config);
        a.start();
        TaskId task = submit("{\"durationMs\": 6000, \"result\": \"never seen\"}");
        awaitToolCalls(1);
        a.crash();

        worker("worker-b", config).start();
        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());

        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.FAILED);
        assertThat(done.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN);
        assertThat(toolCalls).as("never called twice").hasValue(1);
    }

    @Test
    void aWorkerKilledMidCallIsCalledOnceMoreUnderAtLeastOnce() throws Exception {
        AppConfig config = open("atLeastOnce");
        CrashableWorker a = worker("worker-a", config);
        a.start();
        TaskId task = submit("{\"durationMs\": 6000, \"result\": \"second time lucky\"}");
        awaitToolCalls(1);
        a.crash();

        worker("worker-b", config).start();
        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());

        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).contains("second time lucky");
        assertThat(toolCalls).as("called once more").hasValue(2);
    }

    @Test
    void aDirectCallPastItsTimeoutEndsFailedTimeoutUnderAtMostOnce() throws Exception {
        AppConfig config = open("atMostOnce", 1);
        worker("worker-a", config).start();
        TaskId task = submit("{\"durationMs\": 4000, \"result\": \"too late\"}");

        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());

        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.FAILED);
        assertThat(done.state().errorCode()).isEqualTo(ErrorCodes.TIMEOUT);
        assertThat(done.state().error()).contains("did not finish within 1 s (directCallTimeoutSeconds)");
        assertThat(toolCalls).as("never called twice").hasValue(1);
    }

    @Test
    void aDirectCallPastItsTimeoutIsCalledAgainUnderAtLeastOnce() throws Exception {
        AppConfig config = open("atLeastOnce", 1);
        worker("worker-a", config).start();
        TaskId task = submit("{\"durationMs\": 4000, \"result\": \"too late each time\"}");

        // the first call times out; at least once means it is sent again (here it times out again, and again)
        awaitToolCalls(2);

        TaskRecord row = store.find(task).orElseThrow();
        assertThat(row.state().status().isTerminal()).as("%s", row).isFalse();
    }

    private CrashableWorker worker(String id, AppConfig config) {
        CrashableWorker worker = new CrashableWorker(id, TICKING, store, config, factories, clock);
        workers.add(worker);
        return worker;
    }

    private static List<Claim> claimsOf(CrashableWorker worker, TaskId task) {
        return worker.claims().stream().filter(claim -> claim.taskId().equals(task)).toList();
    }

    private TaskId submit(String arguments) {
        return service.submit("ref", "work_optional", arguments, null).id();
    }

    private TaskRecord awaitRow(TaskId id, Predicate<TaskRecord> condition) throws InterruptedException {
        return AwaitRow.until(store, id, WAIT, condition, row -> row);
    }

    private void awaitToolCalls(int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (toolCalls.get() < count) {
            assertThat(System.nanoTime() < deadline).as("waiting for %s tools/call", count).isTrue();
            Thread.sleep(20);
        }
    }

    /** The factory with every {@code tools/call} it sends counted once the transport has handed it over. */
    private McpTransportFactory counting(McpTransportFactory factory) {
        return new McpTransportFactory() {
            @Override
            public String kind() {
                return factory.kind();
            }

            @Override
            public boolean supports(McpServerSpec spec) {
                return factory.supports(spec);
            }

            @Override
            public McpTransport create(McpServerSpec spec) {
                McpTransport transport = factory.create(spec);
                return new McpTransport() {
                    @Override
                    public void start(Listener listener) {
                        transport.start(listener);
                    }

                    @Override
                    public CompletableFuture<Void> send(String message) {
                        CompletableFuture<Void> sent = transport.send(message);
                        if (message.contains("\"method\":\"tools/call\"")) {
                            toolCalls.incrementAndGet();
                        }
                        return sent;
                    }

                    @Override
                    public void abandon(CompletableFuture<Void> sent) {
                        transport.abandon(sent);
                    }

                    @Override
                    public void protocolVersionNegotiated(String version) {
                        transport.protocolVersionNegotiated(version);
                    }

                    @Override
                    public void close() {
                        transport.close();
                    }
                };
            }
        };
    }
}
