package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fixture of the repository contract: a fresh store per test on a {@link ManualClock} and a
 * {@link SequentialIdGenerator}, and the few helpers that move a row through its phases.
 */
public abstract class ContractFixture {
    protected static final String SERVER = "alpha";
    protected static final String OTHER_SERVER = "beta";
    protected static final String TOOL = "long_job";
    protected static final String ARGUMENTS = "{\"size\": 3, \"name\": \"x\"}";
    protected static final String DRIVER = "mcp-tasks";
    protected static final String PROTOCOL = "2025-11-25";
    protected static final Duration LEASE = Duration.ofSeconds(60);
    /** Workers heartbeated within this window, by the store's clock, count as live in claim requests. */
    protected static final Duration LIVENESS = Duration.ofSeconds(30);
    protected static final WorkerId A = WorkerId.of("worker-a");
    protected static final WorkerId B = WorkerId.of("worker-b");
    /** A third worker, which never heartbeats. */
    protected static final WorkerId C = WorkerId.of("worker-c");

    protected ManualClock clock;
    protected SequentialIdGenerator ids;
    protected CloseableTaskRepository repo;
    PausingWriteHook hook;
    private final List<CloseableTaskRepository> peers = new ArrayList<>();
    private final List<TaskId> created = new ArrayList<>();

    /** A fresh, empty store for one test. */
    protected abstract CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook);

    /**
     * Makes every stored heartbeat {@code by} older, as if that much time had passed on the <i>store's</i> clock and
     * on no worker's: the database's own now cannot be moved by a test, so heartbeats are aged instead.
     */
    protected abstract void ageWorkerHeartbeats(Duration by);

    /**
     * Another handle on the store {@link #createRepository} made (a second connection pool on the same database);
     * implementations with a single handle return the first repository, which is the default.
     */
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return repo;
    }

    @BeforeEach
    void openRepository() {
        clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
        ids = new SequentialIdGenerator();
        hook = new PausingWriteHook();
        repo = createRepository(clock, ids, hook);
    }

    @AfterEach
    void closeRepository() {
        hook.releaseAll();
        for (CloseableTaskRepository peer : peers) {
            peer.close();
        }
        repo.close();
    }

    protected CloseableTaskRepository peer() {
        return peer(clock);
    }

    /** Another handle on the store whose own clock is {@code peerClock} (a worker process with a skewed clock). */
    protected CloseableTaskRepository peer(Clock peerClock) {
        CloseableTaskRepository peer = openPeer(peerClock, ids, hook);
        if (peer != repo) {
            peers.add(peer);
        }
        return peer;
    }

    protected Instant now() {
        return clock.now();
    }

    protected void advance(Duration step) {
        clock.advance(step);
    }

    protected TaskId create() {
        return create(SERVER);
    }

    protected TaskId create(String server) {
        return create(new NewTask(ids.newTaskId(), server, TOOL, ARGUMENTS, DRIVER, null));
    }

    /** A task submitted through the gateway by {@code principal}. */
    protected TaskId createFor(String principal) {
        return create(new NewTask(ids.newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null, principal));
    }

    /** A task that asked for {@code ttlMs} of retention. */
    protected TaskId createWithTtl(long ttlMs) {
        return create(new NewTask(ids.newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, ttlMs));
    }

    private TaskId create(NewTask task) {
        repo.create(task);
        created.add(task.id());
        return task.id();
    }

    protected TaskRecord record(TaskId id) {
        return repo.find(id).orElseThrow(() -> new AssertionError("task " + id + " is missing"));
    }

    protected ControlClaimRequest request(ClaimPhase phase, WorkerId worker, int limit, Set<TaskId> excluded) {
        return new ControlClaimRequest(phase, worker, limit, LEASE, LIVENESS, excluded);
    }

    protected List<ClaimedTask> claim(ClaimPhase phase, WorkerId worker, int limit) {
        return repo.claimControl(request(phase, worker, limit, Set.of()));
    }

    protected List<TaskId> claimedIds(ClaimPhase phase, WorkerId worker, int limit) {
        return claim(phase, worker, limit).stream().map(claimed -> claimed.claim().taskId()).toList();
    }

    /** Claims exactly this row (every other row of the test is excluded from the scan). */
    protected Claim claimRow(ClaimPhase phase, WorkerId worker, TaskId id) {
        List<ClaimedTask> claimed = repo.claimControl(request(phase, worker, 10, othersThan(id)));
        assertThat(claimed).as("%s claim of %s by %s", phase, id, worker).hasSize(1);
        return claimed.get(0).claim();
    }

    private Set<TaskId> othersThan(TaskId id) {
        Set<TaskId> others = new HashSet<>(created);
        others.remove(id);
        return others;
    }

    /** A row submitted by worker A: working, remote id {@code r-<id>}, due now, no lease. */
    protected TaskId working() {
        return working(SERVER, null);
    }

    protected TaskId working(String server, WorkerId endpointOwner) {
        TaskId id = create(server);
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo.recordSubmitAttempt(claim)).isTrue();
        assertThat(repo.applySubmitted(claim, submitted("r-" + id, endpointOwner))).isTrue();
        return id;
    }

    protected SubmitWrite submitted(String remoteTaskId, WorkerId endpointOwner) {
        return submitted(remoteTaskId, endpointOwner, null);
    }

    /** A created task, working and due now, made in the upstream session {@code endpointSession} (or in none). */
    protected SubmitWrite submitted(String remoteTaskId, WorkerId endpointOwner, String endpointSession) {
        return new SubmitWrite(remoteTaskId, snapshot(TaskStatus.WORKING), 600_000L, PROTOCOL, endpointOwner, now(),
                null, null, endpointSession);
    }

    /** A representative snapshot of each status (result for completed, error for failed, a question for input). */
    protected static StoredSnapshot snapshot(TaskStatus status) {
        return switch (status) {
            case COMPLETED -> new StoredSnapshot(status, "done", "{\"content\":[{\"type\":\"text\",\"text\":\"42\"}]}",
                    false, null, null, null);
            case FAILED -> new StoredSnapshot(status, null, null, false, "the tool crashed", ErrorCodes.REMOTE_FAILED,
                    null);
            case INPUT_REQUIRED -> new StoredSnapshot(status, "need a value", null, false, null, null,
                    "{\"question\":\"which size?\"}");
            case CANCELLED -> StoredSnapshot.cancelled("cancelled by the server");
            default -> new StoredSnapshot(status, "step " + status.wireName(), null, false, null, null, null);
        };
    }

    protected static AttentionEvent eventOf(TaskId id, StoredSnapshot snapshot) {
        return AttentionEvent.forSnapshot(id, SERVER, TOOL, snapshot).orElse(null);
    }

    /** A result write with the snapshot's own attention event (none for working). */
    protected OutcomeWrite outcome(TaskId id, TaskStatus status, Instant nextControlAt) {
        StoredSnapshot snapshot = snapshot(status);
        return new OutcomeWrite(snapshot, null, status.isTerminal() ? null : nextControlAt, eventOf(id, snapshot));
    }

    protected FailureWrite failure(String error, Instant nextControlAt) {
        return new FailureWrite(error, now(), nextControlAt, false, null);
    }

    /** A row with a pending notification of a completed snapshot (version 1). */
    protected TaskId completedWithEvent() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo.applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null))).isTrue();
        return id;
    }

    protected List<NotificationClaim> claimNotifications(WorkerId worker, int limit) {
        return repo.claimNotifications(new NotificationClaimRequest(worker, limit, LEASE));
    }

    protected NotificationClaim claimOneNotification(WorkerId worker) {
        List<NotificationClaim> claims = claimNotifications(worker, 10);
        assertThat(claims).as("notification claims of %s", worker).hasSize(1);
        return claims.get(0);
    }

    /** The one due delivery, claimed and marked dispatched in one write. */
    protected NotificationClaim claimOneDispatched(WorkerId worker) {
        List<NotificationClaim> claims = repo.claimNotificationsDispatched(
                new NotificationClaimRequest(worker, 10, LEASE));
        assertThat(claims).as("dispatched claims of %s", worker).hasSize(1);
        return claims.get(0);
    }

    protected void heartbeat(WorkerId worker) {
        repo.heartbeat(new WorkerInfo(worker, "host-" + worker, 4242, now()));
    }

    /** The record with its control lease replaced, to compare everything but the lease. */
    protected static TaskRecord withLease(TaskRecord record, TaskRecord.Lease lease) {
        return new TaskRecord(record.id(), record.definition(), record.state(), record.control(), lease,
                record.outbox());
    }
}
