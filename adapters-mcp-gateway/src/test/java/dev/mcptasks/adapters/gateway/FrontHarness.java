package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.core.service.AuditTrail;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The front door over a real TaskService on the in-memory store, a manual clock, a fake catalog and a same-thread
 * executor (every handler runs inside {@link #send}; blocked calls complete when the clock is advanced). Rows are
 * moved through their lifecycle with the repository's own fenced writes, as a worker would.
 */
final class FrontHarness {
    static final Duration POLL = Duration.ofSeconds(1);
    static final String ALICE = "alice";
    static final String BOB = "bob";
    static final String V2025 = "2025-11-25";
    static final String V2026 = "2026-07-28";
    private static final WorkerId WORKER = WorkerId.of("worker-1");

    final ManualClock clock = new ManualClock();
    final SequentialIdGenerator ids = new SequentialIdGenerator();
    final InMemoryTaskRepository repo = new InMemoryTaskRepository(clock, ids);
    /** Where the task service records the principals' actions. */
    final InMemoryAuditLog audit = new InMemoryAuditLog(clock);
    final FakeToolCatalog catalog = new FakeToolCatalog()
            .set("alpha", FakeToolCatalog.tool("long_job", "required"), FakeToolCatalog.tool("echo", null))
            .set("beta", FakeToolCatalog.tool("echo", "forbidden"));
    /** The upstream servers' answers to pass-through requests (none offer anything until a test says). */
    final FakeUpstream upstream = new FakeUpstream();
    final FrontSettings settings;
    final FrontDoor door;
    final FrontDispatcher dispatcher;
    /** What this process's worker would announce its commits to (the harness's writes announce nothing). */
    final TaskChanges changes;
    private int nextId;

    FrontHarness() {
        this(repo -> repo, Runnable::run);
    }

    /** A harness whose task service sees the store through {@code decorate} (to make it fail). */
    FrontHarness(Function<TaskRepository, TaskRepository> decorate) {
        this(decorate, Runnable::run);
    }

    /** A harness whose principals have {@code quotas}. */
    FrontHarness(Quotas quotas) {
        this(repo -> repo, Runnable::run, settings -> settings.withQuotas(quotas));
    }

    /** A harness whose front door serves with its settings changed by {@code tune}. */
    static FrontHarness tuned(UnaryOperator<FrontSettings> tune) {
        return new FrontHarness(repo -> repo, Runnable::run, tune);
    }

    /** A harness whose handlers run on {@code executor} (a queue the test drains, to order races). */
    FrontHarness(Function<TaskRepository, TaskRepository> decorate, Executor executor) {
        this(decorate, executor, UnaryOperator.identity());
    }

    private FrontHarness(Function<TaskRepository, TaskRepository> decorate, Executor executor,
            UnaryOperator<FrontSettings> tune) {
        settings = tune.apply(new FrontSettings(List.of(FrontSettings.ExposedServer.allTools("alpha"),
                FrontSettings.ExposedServer.allTools("beta")), POLL, Duration.ofSeconds(30), "mcp-tasks-test", "9.9",
                500, Quotas.NONE, false, null));
        ServerDirectory servers = ServerDirectory.of(List.of(new ServerProfile("alpha", "mcp-tasks", null, null),
                new ServerProfile("beta", "mcp-tasks", null, null)));
        TaskRepository decorated = decorate.apply(repo);
        TaskService tasks = new TaskService(decorated, servers, ids,
                new AuditTrail(audit, AuditChannel.GATEWAY, "gateway"));
        changes = new TaskChanges(decorated);
        door = FrontDoor.create(tasks, changes, catalog, upstream, clock, executor, settings, Metrics.NONE);
        dispatcher = door.dispatcher();
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) FrontJson.MAPPER.readTree(text.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** A request message with a fresh id; {@code params} uses single quotes for readability. */
    ObjectNode request(String method, String params) {
        ObjectNode message = json("{'jsonrpc':'2.0','id':" + (++nextId) + ",'method':'" + method + "'}");
        message.set("params", json(params));
        return message;
    }

    /** A 2026-07-28 request: the envelope is added to {@code params._meta}, declaring the tasks extension or not. */
    ObjectNode v2026(String method, String params, boolean tasksExtension) {
        ObjectNode message = request(method, params);
        ObjectNode meta = ((ObjectNode) message.get("params")).putObject("_meta");
        meta.put(Envelope2026.PROTOCOL_VERSION, V2026);
        ObjectNode capabilities = meta.putObject(Envelope2026.CLIENT_CAPABILITIES);
        if (tasksExtension) {
            capabilities.putObject("extensions").putObject(Envelope2026.TASKS_EXTENSION);
        }
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "test").put("version", "1");
        return message;
    }

    CompletableFuture<Optional<ObjectNode>> dispatch(String principal, FrontSession session, ObjectNode message) {
        return dispatcher.dispatch(new FrontRequest(principal, session, message));
    }

    /** Sends a request whose answer must be there at once; returns the whole response. */
    ObjectNode send(String principal, FrontSession session, ObjectNode message) {
        CompletableFuture<Optional<ObjectNode>> response = dispatch(principal, session, message);
        assertThat(response).as("answer to %s", message).isDone();
        return response.join().orElseThrow(() -> new AssertionError("no response to " + message));
    }

    /** The response a dispatched request has given by now; fails (never waits) when it has not answered. */
    static ObjectNode answered(CompletableFuture<Optional<ObjectNode>> response) {
        assertThat(response).as("the request has answered").isDone();
        return response.join().orElseThrow(() -> new AssertionError("no response"));
    }

    /** The result of a request that must succeed at once. */
    ObjectNode result(String principal, FrontSession session, ObjectNode message) {
        ObjectNode response = send(principal, session, message);
        assertThat(response.has("error")).as("error answering %s: %s", message, response).isFalse();
        return (ObjectNode) response.get("result");
    }

    /** The error of a request that must fail at once. */
    static JsonNode errorOf(ObjectNode response) {
        assertThat(response.has("error")).as("expected an error, got %s", response).isTrue();
        return response.get("error");
    }

    void tick() {
        clock.advance(POLL);
    }

    TaskRecord row(String id) {
        return repo.find(TaskId.of(id)).orElseThrow();
    }

    // --- the lifecycle, written as a worker would ---

    /** The worker created the remote task under {@code protocol}: the row is working. */
    void created(String id, String protocol) {
        Claim claim = claim(ClaimPhase.SUBMIT, id);
        assertThat(repo.recordSubmitAttempt(claim)).isTrue();
        assertThat(repo.applySubmitted(claim, new SubmitWrite("r-" + id, snapshot(TaskStatus.WORKING, null),
                600_000L, protocol, null, clock.now(), null))).isTrue();
    }

    /** A poll of the working row stored {@code snapshot}. */
    void polled(String id, StoredSnapshot snapshot) {
        Claim claim = claim(ClaimPhase.POLL, id);
        assertThat(repo.applyOutcome(claim, new OutcomeWrite(snapshot, null,
                snapshot.status().isTerminal() ? null : clock.now(), null))).isTrue();
    }

    /** The worker's cancel of a cancel-requested row was confirmed upstream. */
    void cancelConfirmed(String id) {
        Claim claim = claim(ClaimPhase.CANCEL, id);
        assertThat(repo.applyOutcome(claim, new OutcomeWrite(StoredSnapshot.cancelled("Client cancelled task"),
                null, null, null))).isTrue();
    }

    static StoredSnapshot snapshot(TaskStatus status, String message) {
        return new StoredSnapshot(status, message, null, false, null, null, null);
    }

    static StoredSnapshot completed(String resultJson) {
        return new StoredSnapshot(TaskStatus.COMPLETED, null, resultJson.replace('\'', '"'), false, null, null,
                null);
    }

    static StoredSnapshot inputRequired(String requestsJson) {
        return new StoredSnapshot(TaskStatus.INPUT_REQUIRED, null, null, false, null, null,
                requestsJson.replace('\'', '"'));
    }

    private Claim claim(ClaimPhase phase, String id) {
        Set<TaskId> others = repo.list(TaskQuery.all(1000)).stream().map(TaskRecord::id)
                .filter(other -> !other.value().equals(id)).collect(Collectors.toSet());
        List<ClaimedTask> claimed = repo.claimControl(new ControlClaimRequest(phase, WORKER, 1,
                Duration.ofSeconds(120), Duration.ofSeconds(30), others));
        assertThat(claimed).as("%s claim of %s", phase, id).hasSize(1);
        return claimed.get(0).claim();
    }
}
