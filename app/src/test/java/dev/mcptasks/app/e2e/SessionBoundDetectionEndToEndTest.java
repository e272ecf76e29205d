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
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HTTP server that keeps tasks per MCP session (the reference server with {@code --session-scoped}, as
 * server-everything does), configured without {@code sessionBound}. A worker that takes over another's task speaks in
 * the upstream session recorded on the row, so a crashed creator's task still finishes with its result. Where the
 * transport cannot speak in another's session, session binding is detected instead: another live worker whose session
 * cannot see the task hands it back to its creator instead of ending it {@code remote_task_lost}, and records its own
 * later tasks on that server as process-local.
 */
class SessionBoundDetectionEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Worker A ticks only when the test says so (its heartbeat still runs every second). */
    private static final RuntimeSettings BY_HAND = new RuntimeSettings(Duration.ofSeconds(4), Duration.ofSeconds(1),
            8, Duration.ofSeconds(4), Duration.ofSeconds(1), 3, 8L * 1024 * 1024, Duration.ofSeconds(2),
            Duration.ofHours(1), Duration.ofSeconds(3));
    private static final RuntimeSettings TICKING = new RuntimeSettings(Duration.ofSeconds(4), Duration.ofSeconds(1),
            8, Duration.ofSeconds(4), Duration.ofSeconds(1), 3, 8L * 1024 * 1024, Duration.ofSeconds(2),
            Duration.ofMillis(250), Duration.ofSeconds(3));

    @TempDir
    Path dir;

    private ReferenceServer server;
    private Application app;
    private AppConfig config;
    private TaskRepository store;
    private TaskService service;
    private Clock clock;
    private Collection<McpTransportFactory> factories;
    private final List<CrashableWorker> workers = new ArrayList<>();

    @BeforeEach
    void open() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults().withSessionScoped(true)
                .withPollIntervalMs(200));
        URI endpoint = server.startHttp(0);
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString());
        Path file = dir.resolve("mcp-tasks.json");
        Files.writeString(file, json.writeValueAsString(root));
        config = new ConfigLoader(Map.<String, String>of()::get, dir).load(file);
        app = AppRoot.production().openClient(config);
        store = app.get(TaskRepository.class);
        service = app.get(TaskService.class);
        clock = app.get(Clock.class);
        factories = app.injector().getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}))
                .values();
    }

    @AfterEach
    void close() throws Exception {
        try {
            for (CrashableWorker worker : workers) {
                worker.stop();
            }
        } finally {
            app.close();
            server.close();
        }
    }

    @Test
    void aCrashedCreatorsTaskIsFinishedByAnotherWorkerInTheCreatorsUpstreamSession() throws Exception {
        TaskId task = submit("{\"durationMs\": 1500, \"result\": \"done in a's session\"}");
        CrashableWorker a = worker("worker-a", BY_HAND);
        a.start(); // its first tick creates the task through A's session
        TaskRecord created = awaitRow(task, row -> row.state().remoteTaskId() != null);
        assertThat(created.state().endpointSession()).as("the upstream session is recorded").isNotBlank();
        a.crash(); // no release, no DELETE of its upstream session: as after kill -9

        CrashableWorker b = worker("worker-b", TICKING);
        b.start();
        TaskRecord finished = awaitRow(task, row -> row.state().status().isTerminal());

        assertThat(finished.state().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(finished.state().errorCode()).isNull();
        assertThat(finished.state().resultJson()).contains("done in a's session");
        assertThat(b.claims()).extracting(Claim::taskId).contains(task);
    }

    @Test
    void aLiveCreatorsTaskAnotherSessionCannotSeeGoesBackToItsCreatorAndCompletes() throws Exception {
        assertThat(config.servers().get("ref").sessionBound()).as("not configured").isFalse();
        TaskId task = submit("{\"durationMs\": 1500, \"result\": \"done by a\"}");
        CrashableWorker a = worker("worker-a", BY_HAND);
        a.start(); // its first tick creates the task through A's session
        TaskRecord created = awaitRow(task, row -> row.state().remoteTaskId() != null);
        assertThat(created.state().endpointOwner()).as("the server is not known to bind sessions yet").isNull();

        // B's transports cannot speak in another's session (as the legacy SSE transport cannot)
        CrashableWorker b = worker("worker-b", TICKING, withoutResume(factories));
        b.start();
        TaskRecord handedBack = awaitRow(task, row -> a.id().equals(row.state().endpointOwner())
                || row.state().status().isTerminal());
        assertThat(handedBack.state().errorCode()).as("B's session cannot see it, but A is alive").isNull();
        assertThat(handedBack.state().status()).isEqualTo(TaskStatus.WORKING);
        assertThat(handedBack.state().endpointOwner()).isEqualTo(a.id());

        TaskRecord finished = awaitRow(task, row -> {
            a.tick();
            return row.state().status().isTerminal();
        });
        assertThat(finished.state().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(finished.state().resultJson()).contains("done by a");
        assertThat(b.claims()).extracting(Claim::taskId).containsOnlyOnce(task);

        // B remembers that the server binds tasks to sessions: what it creates there is its own from the start. A,
        // ticked by hand, still wakes when a task is created: it stops first, so the later task is B's to create
        a.stop();
        TaskId later = submit("{\"durationMs\": 100}");
        TaskRecord ofB = awaitRow(later, row -> row.state().remoteTaskId() != null);
        assertThat(ofB.state().createdBy()).isEqualTo(b.id());
        assertThat(ofB.state().endpointOwner()).isEqualTo(b.id());
        assertThat(awaitRow(later, row -> row.state().status().isTerminal()).state().status())
                .isEqualTo(TaskStatus.COMPLETED);
    }

    private CrashableWorker worker(String id, RuntimeSettings settings) {
        return worker(id, settings, factories);
    }

    private CrashableWorker worker(String id, RuntimeSettings settings, Collection<McpTransportFactory> made) {
        CrashableWorker worker = new CrashableWorker(id, settings, store, config, made, clock);
        workers.add(worker);
        return worker;
    }

    /** The same factories, without the ability to speak in an existing session. */
    private static Collection<McpTransportFactory> withoutResume(Collection<McpTransportFactory> factories) {
        return factories.stream().<McpTransportFactory>map(factory -> new McpTransportFactory() {
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
                return factory.create(spec);
            }
        }).toList();
    }

    private TaskId submit(String arguments) {
        return service.submit("ref", "work", arguments, null).id();
    }

    /** Polls the row until it matches; fails with the last row seen once {@link #WAIT} has passed. */
    private TaskRecord awaitRow(TaskId id, Predicate<TaskRecord> condition) throws InterruptedException {
        return AwaitRow.until(store, id, WAIT, condition, row -> row);
    }
}
