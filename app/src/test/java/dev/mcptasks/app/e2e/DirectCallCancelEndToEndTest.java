package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.reference.ReceivedCancellation;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's cancel of a task whose direct call is in flight, under the real runtime and assembly (SQLite, the
 * reference server's {@code slow_plain} over Streamable HTTP): the worker holding the call learns of the request,
 * cancels the call, the server receives {@code notifications/cancelled} for exactly that request, and the task ends
 * {@code cancelled}. A call that finishes before anyone cancels keeps its result.
 */
class DirectCallCancelEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** A 4 s lease, 250 ms ticks: a cancel reaches the call within a tick, long before a renewal could tell. */
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
    private CrashableWorker worker;
    /** The JSON-RPC ids of the tools/call requests the client sent, as text. */
    private final List<String> toolCallIds = new CopyOnWriteArrayList<>();

    private void open() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults());
        URI endpoint = server.startHttp(0);
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString()).put("protocol", "2025-11-25");
        Path file = dir.resolve("config.json");
        Files.writeString(file, JSON.writeValueAsString(root));
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).load(file);
        app = AppRoot.production().openClient(config);
        store = app.get(TaskRepository.class);
        service = app.get(TaskService.class);
        Collection<McpTransportFactory> factories = app.injector()
                .getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}))
                .values().stream().map(this::recording).toList();
        worker = new CrashableWorker("worker-a", TICKING, store, config, factories, app.get(Clock.class));
        worker.start();
    }

    @AfterEach
    void close() throws Exception {
        try {
            if (worker != null) {
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
    void cancellingADirectCallInFlightTellsTheServerAndEndsTheTaskCancelled() throws Exception {
        open();
        // slow_plain has no task support: the default call mode runs it as a direct call
        TaskId task = service.submit("ref", "slow_plain", "{\"durationMs\": 120000, \"steps\": 4}", null).id();
        await(() -> !toolCallIds.isEmpty(), "the direct call was sent");

        assertThat(service.requestCancel(task)).isEqualTo(CancelRequestOutcome.REQUESTED);
        TaskRecord done = AwaitRow.until(store, task, WAIT, row -> row.state().status().isTerminal(), row -> row);

        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.CANCELLED);
        assertThat(done.state().statusMessage()).contains("notifications/cancelled");
        assertThat(done.state().remoteTaskId()).isNull();
        await(() -> !server.receivedCancellations().isEmpty(), "the server was told");
        assertThat(server.receivedCancellations()).extracting(ReceivedCancellation::requestId)
                .containsExactly(toolCallIds.get(0));
        assertThat(toolCallIds).as("called once").hasSize(1);
    }

    @Test
    void aDirectCallThatFinishesFirstKeepsItsResultAndTheServerIsToldNothing() throws Exception {
        open();
        TaskId task = service.submit("ref", "slow_plain", "{\"durationMs\": 200, \"result\": \"first\"}", null).id();
        TaskRecord done = AwaitRow.until(store, task, WAIT, row -> row.state().status().isTerminal(), row -> row);

        assertThat(service.requestCancel(task)).isEqualTo(CancelRequestOutcome.ALREADY_TERMINAL);
        assertThat(done.state().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).contains("first");
        assertThat(server.receivedCancellations()).isEmpty();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("waiting until %s", what).isTrue();
            Thread.sleep(20);
        }
    }

    /** The factory with the id of every {@code tools/call} it sends recorded. */
    private McpTransportFactory recording(McpTransportFactory factory) {
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
                        if (message.contains("\"method\":\"tools/call\"")) {
                            try {
                                JsonNode parsed = JSON.readTree(message);
                                toolCallIds.add(parsed.path("id").asText());
                            } catch (java.io.IOException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                        return transport.send(message);
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
