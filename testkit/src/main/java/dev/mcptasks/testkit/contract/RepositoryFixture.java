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
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What every topic of the repository contract stands on: a fresh store per test on a {@link ManualClock} and a
 * {@link SequentialIdGenerator}, and the helpers that move a row through its phases. {@link ContractFixture}
 * implements the handles; the topics ({@link ClaimContract}, {@link FenceContract}, ...) are interfaces over this one,
 * so a test class runs one topic by implementing it beside {@code extends ContractFixture}.
 */
public interface RepositoryFixture {
    String SERVER = "alpha";
    String OTHER_SERVER = "beta";
    String TOOL = "long_job";
    String ARGUMENTS = "{\"size\": 3, \"name\": \"x\"}";
    String DRIVER = "mcp-tasks";
    String PROTOCOL = "2025-11-25";
    Duration LEASE = Duration.ofSeconds(60);
    /** Workers heartbeated within this window, by the store's clock, count as live in claim requests. */
    Duration LIVENESS = Duration.ofSeconds(30);
    WorkerId A = WorkerId.of("worker-a");
    WorkerId B = WorkerId.of("worker-b");
    /** A third worker, which never heartbeats. */
    WorkerId C = WorkerId.of("worker-c");

    /** The store of the running test. */
    CloseableTaskRepository repo();

    ManualClock clock();

    SequentialIdGenerator ids();

    /** The hook the store was opened with, which parks a chosen fenced write until the test resumes it. */
    PausingWriteHook hook();

    /** Another handle on the store whose own clock is {@code peerClock} (a worker process with a skewed clock). */
    CloseableTaskRepository peer(Clock peerClock);

    /** Makes every stored heartbeat {@code by} older, as if that much time had passed on the store's clock only. */
    void ageHeartbeats(Duration by);

    /** Stores {@code task} and remembers it, so {@link #claimRow} can exclude it when claiming another row. */
    TaskId create(NewTask task);

    /** The tasks this test created, oldest first. */
    List<TaskId> created();

    default CloseableTaskRepository peer() {
        return peer(clock());
    }

    default Instant now() {
        return clock().now();
    }

    default void advance(Duration step) {
        clock().advance(step);
    }

    default TaskId create() {
        return create(SERVER);
    }

    default TaskId create(String server) {
        return create(new NewTask(ids().newTaskId(), server, TOOL, ARGUMENTS, DRIVER, null));
    }

    /** A task submitted through the gateway by {@code principal}. */
    default TaskId createFor(String principal) {
        return create(new NewTask(ids().newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null, principal));
    }

    /** A task that asked for {@code ttlMs} of retention. */
    default TaskId createWithTtl(long ttlMs) {
        return create(new NewTask(ids().newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, ttlMs));
    }

    default TaskRecord record(TaskId id) {
        return repo().find(id).orElseThrow(() -> new AssertionError("task " + id + " is missing"));
    }

    default TaskRecord.Outbox outbox(TaskId id) {
        return record(id).outbox();
    }

    default ControlClaimRequest request(ClaimPhase phase, WorkerId worker, int limit, Set<TaskId> excluded) {
        return new ControlClaimRequest(phase, worker, limit, LEASE, LIVENESS, excluded);
    }

    default List<ClaimedTask> claim(ClaimPhase phase, WorkerId worker, int limit) {
        return repo().claimControl(request(phase, worker, limit, Set.of()));
    }

    default List<TaskId> claimedIds(ClaimPhase phase, WorkerId worker, int limit) {
        return claim(phase, worker, limit).stream().map(claimed -> claimed.claim().taskId()).toList();
    }

    /** Claims exactly this row (every other row of the test is excluded from the scan). */
    default Claim claimRow(ClaimPhase phase, WorkerId worker, TaskId id) {
        Set<TaskId> others = new HashSet<>(created());
        others.remove(id);
        List<ClaimedTask> claimed = repo().claimControl(request(phase, worker, 10, others));
        assertThat(claimed).as("%s claim of %s by %s", phase, id, worker).hasSize(1);
        return claimed.get(0).claim();
    }

    /** A take-over of the row by worker B, for {@link #assertStaleWriteRejected}. */
    default Runnable claimedBy(ClaimPhase phase, TaskId id) {
        return () -> assertThat(claimRow(phase, B, id).owner()).isEqualTo(B);
    }

    /** A row submitted by worker A: working, remote id {@code r-<id>}, due now, no lease. */
    default TaskId working() {
        return working(SERVER, null);
    }

    default TaskId working(String server, WorkerId endpointOwner) {
        TaskId id = create(server);
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(claim)).isTrue();
        assertThat(repo().applySubmitted(claim, submitted("r-" + id, endpointOwner))).isTrue();
        return id;
    }

    default SubmitWrite submitted(String remoteTaskId, WorkerId endpointOwner) {
        return submitted(remoteTaskId, endpointOwner, null);
    }

    /** A created task, working and due now, made in the upstream session {@code endpointSession} (or in none). */
    default SubmitWrite submitted(String remoteTaskId, WorkerId endpointOwner, String endpointSession) {
        return new SubmitWrite(remoteTaskId, snapshot(TaskStatus.WORKING), 600_000L, PROTOCOL, endpointOwner, now(),
                null, null, endpointSession);
    }

    /** A representative snapshot of each status (result for completed, error for failed, a question for input). */
    default StoredSnapshot snapshot(TaskStatus status) {
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

    default AttentionEvent eventOf(TaskId id, StoredSnapshot snapshot) {
        return AttentionEvent.forSnapshot(id, SERVER, TOOL, snapshot).orElse(null);
    }

    /** A result write with the snapshot's own attention event (none for working). */
    default OutcomeWrite outcome(TaskId id, TaskStatus status, Instant nextControlAt) {
        StoredSnapshot snapshot = snapshot(status);
        return new OutcomeWrite(snapshot, null, status.isTerminal() ? null : nextControlAt, eventOf(id, snapshot));
    }

    default FailureWrite failure(String error, Instant nextControlAt) {
        return new FailureWrite(error, now(), nextControlAt, false, null);
    }

    /** Polls the row to {@code status} (due again at once when nonterminal), recording the snapshot's event. */
    default AttentionEvent pollTo(TaskId id, TaskStatus status) {
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(poll, outcome(id, status, now()))).isTrue();
        return eventOf(id, snapshot(status));
    }

    /** A row with a pending notification of a completed snapshot (version 1). */
    default TaskId completedWithEvent() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null))).isTrue();
        return id;
    }

    default List<NotificationClaim> claimNotifications(WorkerId worker, int limit) {
        return repo().claimNotifications(new NotificationClaimRequest(worker, limit, LEASE));
    }

    default NotificationClaim claimOneNotification(WorkerId worker) {
        List<NotificationClaim> claims = claimNotifications(worker, 10);
        assertThat(claims).as("notification claims of %s", worker).hasSize(1);
        return claims.get(0);
    }

    /** The one due delivery, claimed and marked dispatched in one write. */
    default NotificationClaim claimOneDispatched(WorkerId worker) {
        List<NotificationClaim> claims = repo().claimNotificationsDispatched(
                new NotificationClaimRequest(worker, 10, LEASE));
        assertThat(claims).as("dispatched claims of %s", worker).hasSize(1);
        return claims.get(0);
    }

    default void heartbeat(WorkerId worker) {
        repo().heartbeat(new WorkerInfo(worker, "host-" + worker, 4242, now()));
    }

    /** The record with its control lease replaced, to compare everything but the lease. */
    default TaskRecord withLease(TaskRecord record, TaskRecord.Lease lease) {
        return new TaskRecord(record.id(), record.definition(), record.state(), record.control(), lease,
                record.outbox());
    }

    /**
     * Runs {@code staleWrite} on another thread, parks it in the hook, lets {@code takeOver} claim the row for
     * worker B, then resumes it and checks that it was rejected without touching the row.
     */
    default void assertStaleWriteRejected(FencedWrite write, TaskId id, BooleanSupplier staleWrite,
            Runnable takeOver) throws Exception {
        PausingWriteHook.Pause pause = hook().arm(write, id);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> result = writer.submit(staleWrite::getAsBoolean);
            assertThat(pause.awaitReached()).as("the %s reached the hook", write).isTrue();
            advance(LEASE.plusSeconds(1));
            takeOver.run();
            TaskRecord before = record(id);
            pause.resume();

            assertThat(result.get(PausingWriteHook.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the stale %s", write).isFalse();
            assertThat(record(id)).isEqualTo(before);
        } finally {
            pause.resume();
            writer.shutdownNow();
        }
    }
}
