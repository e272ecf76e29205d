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
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.reference.ReferenceServerMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Process-local endpoints end to end (runtime-behaviour.md section 8): two workers on one SQLite file, each with its
 * own reference server child over stdio under the same server name. A task lives in the child of the worker that
 * created it: while that worker is alive the other never controls it nor marks it lost; once it dies abruptly
 * ({@code kill -9}: no release, no drain, its child gone), a restarted worker ends that task {@code remote_task_lost}
 * once the dead worker's lease and heartbeat lapse, ends the one it died submitting {@code submit_outcome_unknown},
 * and completes work that was never sent. Nothing is left stuck.
 */
class ProcessLocalEndpointsEndToEndTest {
    /** Short lease and staleness so a crash is recovered within seconds; a 250 ms tick keeps claims prompt. */
    private static final RuntimeSettings SETTINGS = new RuntimeSettings(Duration.ofSeconds(4), Duration.ofSeconds(1),
            8, Duration.ofSeconds(4), Duration.ofSeconds(1), 3, 8L * 1024 * 1024, Duration.ofSeconds(2),
            Duration.ofMillis(250), Duration.ofSeconds(3));
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private Application app;
    private AppConfig config;
    private TaskRepository store;
    private TaskService service;
    private Clock clock;
    private Collection<McpTransportFactory> factories;
    private final List<CrashableWorker> workers = new ArrayList<>();

    @BeforeEach
    void openStore() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        ObjectNode ref = root.putObject("mcpServers").putObject("ref");
        ref.put("command", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ref.putArray("args").add("-XX:+UseSerialGC").add("-XX:TieredStopAtLevel=1").add("-cp")
                .add(System.getProperty("java.class.path")).add(ReferenceServerMain.class.getName()).add("--stdio")
                .add("--poll-interval-ms").add("200");
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
    void stopAll() throws Exception {
        try {
            for (CrashableWorker worker : workers) {
                worker.stop();
            }
        } finally {
            app.close();
        }
    }

    @Test
    void onlyTheLiveCreatorControlsItsTaskAndTheOtherWorkerNeverMarksItLost() throws Exception {
        CrashableWorker a = worker("worker-a");
        a.start();
        TaskId task = submit("{\"durationMs\": 4000, \"result\": \"done by a\"}");
        TaskRecord created = awaitRow(task, row -> row.state().status() == TaskStatus.WORKING
                && row.state().remoteTaskId() != null);
        assertThat(created.state().endpointOwner()).isEqualTo(a.id());

        CrashableWorker b = worker("worker-b");
        b.start();
        // While the task runs remotely (several poll intervals), every observation shows it A's and never B's.
        List<TaskRecord> seen = new ArrayList<>();
        TaskRecord finished = awaitRow(task, row -> {
            seen.add(row);
            return row.state().status().isTerminal();
        });

        assertThat(finished.state().status()).as(describe(finished)).isEqualTo(TaskStatus.COMPLETED);
        assertThat(finished.state().resultJson()).contains("done by a");
        assertThat(finished.state().endpointOwner()).isEqualTo(a.id());
        assertThat(seen).extracting(row -> row.lease().owner()).doesNotContain(b.id());
        assertThat(a.claims()).extracting(Claim::taskId).contains(task);
        assertThat(b.claims()).extracting(Claim::taskId).doesNotContain(task);
        // Neither worker died or deregistered: B's silence was the rule at work, not a dead B.
        assertThat(store.workers()).extracting(worker -> worker.id()).contains(a.id(), b.id());
        assertThat(b.claims()).isEmpty();
    }

    @Test
    void afterACrashAndARestartNoTaskIsStuck() throws Exception {
        CrashableWorker a = worker("worker-a");
        a.start();
        TaskId stranded = submit("{\"durationMs\": 600000}");
        TaskRecord created = awaitRow(stranded, row -> row.state().status() == TaskStatus.WORKING
                && row.state().remoteTaskId() != null);
        assertThat(created.state().endpointOwner()).isEqualTo(a.id());
        a.dieAtNextSubmitAttempt();
        TaskId inFlight = submit("{\"durationMs\": 300}");
        assertThat(a.awaitDiedMidSubmit(WAIT)).isEqualTo(inFlight);
        a.crash();

        CrashableWorker b = worker("worker-b");
        b.start();
        TaskId unsent = submit("{\"durationMs\": 300, \"result\": \"done by b\"}");

        TaskRecord completed = awaitRow(unsent, row -> row.state().status().isTerminal());
        assertThat(completed.state().status()).as(describe(completed)).isEqualTo(TaskStatus.COMPLETED);
        assertThat(completed.state().resultJson()).contains("done by b");
        assertThat(completed.state().endpointOwner()).isEqualTo(b.id());

        TaskRecord lost = awaitRow(stranded, row -> row.state().status().isTerminal());
        assertThat(lost.state().status()).as(describe(lost)).isEqualTo(TaskStatus.FAILED);
        assertThat(lost.state().errorCode()).isEqualTo(ErrorCodes.REMOTE_TASK_LOST);

        // submitPolicy atMostOnce (the default): a create that may have been sent is never sent again.
        TaskRecord unknown = awaitRow(inFlight, row -> row.state().status().isTerminal());
        assertThat(unknown.state().status()).as(describe(unknown)).isEqualTo(TaskStatus.FAILED);
        assertThat(unknown.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN);

        assertThat(b.claims()).extracting(Claim::taskId).contains(stranded, inFlight, unsent);
        assertThat(store.countByStatus()).allSatisfy((status, count) ->
                assertThat(status.isTerminal() || count == 0).as(status + ": " + count).isTrue());
    }

    private CrashableWorker worker(String id) {
        CrashableWorker worker = new CrashableWorker(id, SETTINGS, store, config, factories, clock);
        workers.add(worker);
        return worker;
    }

    private TaskId submit(String arguments) {
        return service.submit("ref", "work", arguments, null).id();
    }

    /** Polls the row until it matches; fails with the last row seen once {@link #WAIT} has passed. */
    private TaskRecord awaitRow(TaskId id, Predicate<TaskRecord> condition) throws InterruptedException {
        return AwaitRow.until(store, id, WAIT, condition, ProcessLocalEndpointsEndToEndTest::describe);
    }

    private static String describe(TaskRecord row) {
        return row.id() + " " + row.state().status() + " (" + Objects.toString(row.state().errorCode(), "-") + ": "
                + Objects.toString(row.state().error(), "-") + "), endpoint owner " + row.state().endpointOwner()
                + ", lease " + row.lease().owner();
    }
}
