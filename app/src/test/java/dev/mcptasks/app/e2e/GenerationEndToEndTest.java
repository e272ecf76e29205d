package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.postgres.PostgresTestDatabase;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.reference.ServedGenerations;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Protocol generations end to end, with the real assembly over Streamable HTTP against one reference server that
 * serves both generations on one endpoint: a server that offers the 2026-07-28 tasks extension is driven under it
 * unless the config pins 2025-11-25, and a task keeps the generation it was created under for its whole life, even
 * when the worker that created it dies and another worker, configured differently, finishes it. The reference
 * server's call journal says which generation every control call was made under.
 */
class GenerationEndToEndTest {
    private static final String V2025 = "2025-11-25";
    private static final String V2026 = "2026-07-28";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** A short lease (4 s) and staleness (3 s), so a crashed worker's claims pass to another worker within seconds. */
    private static final RuntimeSettings TICKING = new RuntimeSettings(Duration.ofSeconds(4), Duration.ofSeconds(1),
            8, Duration.ofSeconds(4), Duration.ofSeconds(1), 3, 8L * 1024 * 1024, Duration.ofSeconds(2),
            Duration.ofMillis(250), Duration.ofSeconds(3));
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The stores the class runs against. */
    enum Store { SQLITE, POSTGRES }

    @TempDir
    Path dir;

    private Path callLog;
    private ReferenceServer server;
    private Application app;
    /** The server as configured by default: {@code "protocol"} left out, i.e. auto. */
    private AppConfig auto;
    /** The same server pinned to {@code "protocol": "2025-11-25"}. */
    private AppConfig v2025;
    private TaskRepository store;
    private TaskService service;
    private Clock clock;
    private Collection<McpTransportFactory> factories;
    private final List<CrashableWorker> workers = new ArrayList<>();

    private void open(Store kind) throws Exception {
        callLog = dir.resolve("calls.jsonl");
        server = new ReferenceServer(ReferenceServerOptions.defaults().withGeneration(ServedGenerations.DUAL)
                .withPollIntervalMs(200).withCallLog(callLog));
        URI endpoint = server.startHttp(0);
        ObjectNode database = JSON.createObjectNode();
        if (kind == Store.SQLITE) {
            database.put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        } else {
            PostgresSettings settings = PostgresTestDatabase.freshDatabase();
            database.put("url", settings.jdbcUrl());
            if (settings.user() != null) {
                database.put("user", settings.user());
            }
            if (settings.password() != null) {
                database.put("password", settings.password());
            }
        }
        auto = config("auto.json", database, endpoint, null);
        v2025 = config("legacy.json", database, endpoint, V2025);
        assertThat(auto.servers().get("ref").pinnedGeneration()).as("auto discovers").isNull();
        app = AppRoot.production().openClient(auto);
        store = app.get(TaskRepository.class);
        service = app.get(TaskService.class);
        clock = app.get(Clock.class);
        factories = app.injector().getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}))
                .values();
    }

    private AppConfig config(String name, ObjectNode database, URI endpoint, String protocol) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.set("database", database.deepCopy());
        ObjectNode ref = root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString());
        if (protocol != null) {
            ref.put("protocol", protocol);
        }
        Path file = dir.resolve(name);
        Files.writeString(file, JSON.writeValueAsString(root));
        return new ConfigLoader(Map.<String, String>of()::get, dir).load(file);
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

    @ParameterizedTest
    @EnumSource(Store.class)
    void aDualServerIsDrivenUnderTheExtensionByDefault(Store kind) throws Exception {
        open(kind);
        worker("worker-a", auto).start();
        TaskId task = submit("{\"durationMs\": 300, \"result\": \"done under 2026\"}");

        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());
        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).contains("done under 2026");
        assertThat(done.state().protocolVersion()).isEqualTo(V2026);

        CallJournalLines journal = CallJournalLines.read(callLog);
        String remote = done.state().remoteTaskId();
        assertThat(journal.creation(remote).path("generation").asText()).as("created under").isEqualTo(V2026);
        assertThat(journal.creation(remote).path("kind").asText()).isEqualTo("extension_task");
        assertThat(journal.calls(remote)).as("%s", journal).isNotEmpty()
                .allSatisfy(call -> assertThat(call.generation()).isEqualTo(V2026))
                .anySatisfy(call -> {
                    assertThat(call.method()).isEqualTo("tasks/get");
                    assertThat(call.endStatus()).isEqualTo("completed");
                })
                .noneSatisfy(call -> assertThat(call.method()).isEqualTo("tasks/result"));
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void a2025TaskIsFinishedUnderItsOwnGenerationByAnotherWorkerAfterARestart(Store kind) throws Exception {
        open(kind);
        CrashableWorker a = worker("worker-a", v2025);
        a.start();
        TaskId task = submit("{\"durationMs\": 3000, \"statusDelayMs\": 1000, \"result\": \"legacy result\"}");
        TaskRecord created = awaitRow(task, row -> row.state().remoteTaskId() != null);
        assertThat(created.state().protocolVersion()).isEqualTo(V2025);
        String remote = created.state().remoteTaskId();
        // A dies in the middle of a status poll, holding its claim: B can take the task only once that lease expires
        awaitOpenCall(remote, "tasks/get");
        a.crash();
        Instant leaseOfA = lastClaim(a, task).expiresAt();
        assertThat(store.find(task).orElseThrow().state().status().isTerminal()).as("A died before it ended").isFalse();

        // B discovers the server on its own: its new tasks go 2026, but A's task stays a 2025 task
        CrashableWorker b = worker("worker-b", auto);
        b.start();
        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());
        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).contains("legacy result");
        assertThat(done.state().protocolVersion()).isEqualTo(V2025);
        assertThat(firstClaimTime(b, task)).as("B took over once A's lease expired").isAfterOrEqualTo(leaseOfA);

        CallJournalLines journal = CallJournalLines.read(callLog);
        JsonNode creation = journal.creation(remote);
        assertThat(creation.has("generation")).as("created under 2025: %s", creation).isFalse();
        String sessionOfA = creation.path("session").asText();
        List<CallJournalLines.Call> calls = journal.calls(remote);
        assertThat(calls).as("%s", journal)
                .allSatisfy(call -> assertThat(call.generation()).as("every call on it is 2025").isNull());
        // B speaks in the upstream session A created the task in (recorded on the row), not in one of its own; A
        // died before the task ended, so the result was fetched by B
        assertThat(done.state().endpointSession()).isEqualTo(sessionOfA);
        assertThat(calls).as("every call in A's session: %s", journal)
                .allSatisfy(call -> assertThat(call.session()).isEqualTo(sessionOfA))
                .anySatisfy(call -> assertThat(call.method()).isEqualTo("tasks/result"));

        TaskId later = submit("{\"durationMs\": 100}");
        TaskRecord ofBLater = awaitRow(later, row -> row.state().status().isTerminal());
        assertThat(ofBLater.state().status()).as("%s", ofBLater).isEqualTo(TaskStatus.COMPLETED);
        assertThat(ofBLater.state().protocolVersion()).as("B's own task").isEqualTo(V2026);
        assertThat(CallJournalLines.read(callLog).creation(ofBLater.state().remoteTaskId()).path("generation")
                .asText()).isEqualTo(V2026);
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void a2026TaskIsFinishedUnderItsOwnGenerationByAnotherWorkerAfterARestart(Store kind) throws Exception {
        open(kind);
        CrashableWorker a = worker("worker-a", auto);
        a.start();
        TaskId task = submit("{\"durationMs\": 3000, \"statusDelayMs\": 1000, \"result\": \"extension result\"}");
        TaskRecord created = awaitRow(task, row -> row.state().remoteTaskId() != null);
        assertThat(created.state().protocolVersion()).isEqualTo(V2026);
        String remote = created.state().remoteTaskId();
        // A dies in the middle of a status poll, holding its claim: B can take the task only once that lease expires
        awaitOpenCall(remote, "tasks/get");
        a.crash();
        Instant leaseOfA = lastClaim(a, task).expiresAt();
        assertThat(store.find(task).orElseThrow().state().status().isTerminal()).as("A died before it ended").isFalse();

        // B is pinned to 2025 for its new tasks; a 2025 tasks/get could not even see A's task on this server
        CrashableWorker b = worker("worker-b", v2025);
        b.start();
        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());
        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).contains("extension result");
        assertThat(done.state().protocolVersion()).isEqualTo(V2026);
        assertThat(firstClaimTime(b, task)).as("B took over once A's lease expired").isAfterOrEqualTo(leaseOfA);

        CallJournalLines journal = CallJournalLines.read(callLog);
        assertThat(journal.creation(remote).path("generation").asText()).isEqualTo(V2026);
        // A is dead and cannot write: the completion B stored came from a call that saw it, all of them 2026
        assertThat(journal.calls(remote)).as("%s", journal)
                .allSatisfy(call -> assertThat(call.generation()).isEqualTo(V2026))
                .anySatisfy(call -> {
                    assertThat(call.method()).isEqualTo("tasks/get");
                    assertThat(call.endStatus()).isEqualTo("completed");
                });

        TaskId later = submit("{\"durationMs\": 100}");
        TaskRecord ofB = awaitRow(later, row -> row.state().status().isTerminal());
        assertThat(ofB.state().status()).as("%s", ofB).isEqualTo(TaskStatus.COMPLETED);
        assertThat(ofB.state().protocolVersion()).as("B's own task").isEqualTo(V2025);
        JsonNode laterCreation = CallJournalLines.read(callLog).creation(ofB.state().remoteTaskId());
        assertThat(laterCreation.has("generation")).as("%s", laterCreation).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void anInputRequestIsAnsweredThroughTheStoreAndDeliveredByAnotherWorker(Store kind) throws Exception {
        open(kind);
        CrashableWorker a = worker("worker-a", auto);
        a.start();
        TaskId task = submit("{\"askInput\": \"Which colour?\", \"durationMs\": 100, \"result\": \"answered\"}");
        TaskRecord waiting = awaitRow(task, row -> !InputRequests.of(row).isEmpty()
                || row.state().status().isTerminal());
        assertThat(waiting.state().status()).as("%s", waiting).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(waiting.state().protocolVersion()).isEqualTo(V2026);
        a.crash();
        List<InputRequests.InputRequest> requests = InputRequests.of(waiting);
        assertThat(requests).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("elicitation/create");
            assertThat(request.message()).isEqualTo("Which colour?");
        });
        String key = requests.get(0).key();

        String answer = "{\"action\":\"accept\",\"content\":{\"colour\":\"blue\"}}";
        assertThat(service.answer(task, key, answer)).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(store.find(task).orElseThrow().state().inputResponsesJson()).as("stored, not yet delivered")
                .contains("blue");

        CrashableWorker b = worker("worker-b", auto);
        b.start();
        TaskRecord done = awaitRow(task, row -> row.state().status().isTerminal());
        assertThat(done.state().status()).as("%s", done).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().inputResponsesJson()).as("delivered").isNull();
        assertThat(JSON.readTree(done.state().resultJson()).path("structuredContent").path("inputResponses")
                .path(key)).isEqualTo(JSON.readTree(answer));
        assertThat(b.claims()).extracting(Claim::taskId).contains(task);

        CallJournalLines journal = CallJournalLines.read(callLog);
        String remote = done.state().remoteTaskId();
        assertThat(journal.answers(remote)).as("%s", journal).singleElement().satisfies(line -> {
            assertThat(line.path("key").asText()).isEqualTo(key);
            assertThat(line.path("accepted").asBoolean()).isTrue();
            assertThat(line.path("via").asText()).isEqualTo("tasks/update");
            assertThat(line.path("response")).isEqualTo(JSON.readTree(answer));
        });
        assertThat(journal.calls(remote))
                .allSatisfy(call -> assertThat(call.generation()).isEqualTo(V2026))
                .anySatisfy(call -> assertThat(call.method()).isEqualTo("tasks/update"));
    }

    private CrashableWorker worker(String id, AppConfig config) {
        CrashableWorker worker = new CrashableWorker(id, TICKING, store, config, factories, clock);
        workers.add(worker);
        return worker;
    }

    /** The last control claim {@code worker} took on {@code task}. */
    private static Claim lastClaim(CrashableWorker worker, TaskId task) {
        List<Claim> claims = worker.claims().stream().filter(claim -> claim.taskId().equals(task)).toList();
        assertThat(claims).as("%s claimed %s", worker.id(), task).isNotEmpty();
        return claims.get(claims.size() - 1);
    }

    /** When {@code worker} first claimed {@code task}: a claim expires one lease after it was taken. */
    private static Instant firstClaimTime(CrashableWorker worker, TaskId task) {
        return worker.claims().stream().filter(claim -> claim.taskId().equals(task)).findFirst()
                .orElseThrow(() -> new AssertionError(worker.id() + " never claimed " + task))
                .expiresAt().minus(TICKING.lease());
    }

    /** Polls the call journal until a {@code method} call on the remote task is begun and not yet answered. */
    private void awaitOpenCall(String remoteTaskId, String method) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (CallJournalLines.read(callLog).calls(remoteTaskId).stream()
                .noneMatch(call -> call.method().equals(method) && !call.ended())) {
            assertThat(System.nanoTime() < deadline).as("waiting for an open %s on %s: %s", method, remoteTaskId,
                    CallJournalLines.read(callLog)).isTrue();
            Thread.sleep(20);
        }
    }

    private TaskId submit(String arguments) {
        return service.submit("ref", "work", arguments, null).id();
    }

    /** Polls the row until it matches; fails with the last row seen once {@link #WAIT} has passed. */
    private TaskRecord awaitRow(TaskId id, Predicate<TaskRecord> condition) throws InterruptedException {
        return AwaitRow.until(store, id, WAIT, condition, row -> row);
    }
}
