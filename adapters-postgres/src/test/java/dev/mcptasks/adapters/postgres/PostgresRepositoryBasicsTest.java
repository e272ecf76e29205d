package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Focused checks of the PostgreSQL statements: round trips, claims, fences, cancel requests and the outbox. */
class PostgresRepositoryBasicsTest {
    private static final WorkerId WORKER = WorkerId.of("worker-a");
    private static final Duration LEASE = Duration.ofSeconds(120);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00.123456Z"));
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private CloseableTaskRepository repository;

    /** A fresh database or schema for one test; subclasses run the same checks on another server. */
    protected PostgresSettings freshSettings() {
        return PostgresTestDatabase.freshSchema();
    }

    @BeforeEach
    void open() {
        repository = PostgresTaskRepositories.open(freshSettings(), clock, ids, FencedWriteHook.NONE);
    }

    @AfterEach
    void close() {
        repository.close();
    }

    private TaskRecord create() {
        return repository.create(new NewTask(ids.newTaskId(), "srv", "tool", "{\"a\":[1,2.50,\"x\"]}",
                "mcp-tasks", 60_000L));
    }

    private List<ClaimedTask> claim(ClaimPhase phase, int limit) {
        return repository.claimControl(new ControlClaimRequest(phase, WORKER, limit, LEASE,
                Duration.ofSeconds(30), Set.of()));
    }

    @Test
    void createdRowRoundTripsWholeAtMillisecondPrecision() {
        TaskRecord created = create();

        assertThat(created.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(created.definition().createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        assertThat(created.control().nextControlAt()).isEqualTo(created.definition().createdAt());
        assertThat(created.definition().argumentsJson()).isEqualTo("{\"a\":[1,2.50,\"x\"]}");
        assertThat(created.outbox().status()).isEqualTo(NotificationStatus.NONE);
        assertThat(repository.find(created.id())).contains(created);
    }

    @Test
    void aUsedIdIsADuplicate() {
        TaskRecord created = create();

        assertThatThrownBy(() -> repository.create(new NewTask(created.id(), "srv", "tool", "{}", "mcp-tasks",
                null))).isInstanceOf(DuplicateTaskException.class).hasMessageContaining("tasks_pkey");
    }

    @Test
    void submitClaimThenSubmittedThenPollOutcome() {
        TaskRecord created = create();
        List<ClaimedTask> claimed = claim(ClaimPhase.SUBMIT, 8);
        assertThat(claimed).hasSize(1);
        Claim claim = claimed.get(0).claim();
        assertThat(claimed.get(0).task().control().submitAttemptCount()).isEqualTo(1);
        assertThat(claimed.get(0).task().lease().expiresAt()).isEqualTo(created.definition().createdAt().plus(LEASE));
        assertThat(claim(ClaimPhase.SUBMIT, 8)).isEmpty();

        assertThat(repository.recordSubmitAttempt(claim)).isTrue();
        StoredSnapshot working = new StoredSnapshot(TaskStatus.WORKING, "started", null, false, null, null, null);
        assertThat(repository.applySubmitted(claim, new SubmitWrite("remote-1", working, 30_000L, "2025-11-25",
                null, clock.now().plusSeconds(5), null))).isTrue();
        assertThat(repository.applySubmitted(claim, new SubmitWrite("remote-1", working, 30_000L, "2025-11-25",
                null, clock.now().plusSeconds(5), null))).isFalse();

        clock.advance(Duration.ofSeconds(5));
        Claim poll = claim(ClaimPhase.POLL, 8).get(0).claim();
        StoredSnapshot done = new StoredSnapshot(TaskStatus.COMPLETED, null, "{\"ok\":true}", false, null, null,
                null);
        AttentionEvent event = AttentionEvent.forSnapshot(created.id(), "srv", "tool", done).orElseThrow();
        assertThat(repository.applyOutcome(poll, new OutcomeWrite(done, null, null, event))).isTrue();

        TaskRecord stored = repository.find(created.id()).orElseThrow();
        assertThat(stored.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(stored.state().remoteTtlMs()).isEqualTo(30_000L);
        assertThat(stored.state().completedAt()).isEqualTo(Instant.parse("2026-01-01T00:00:05.123Z"));
        assertThat(stored.control().lastPolledAt()).isEqualTo(stored.state().completedAt());
        assertThat(stored.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(stored.outbox().eventVersion()).isEqualTo(1);
        assertThat(stored.outbox().status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(stored.outbox().nextAt()).isEqualTo(stored.state().completedAt());
    }

    @Test
    void staleWritesLeaveTheWholeRowUnchanged() {
        create();
        Claim first = claim(ClaimPhase.SUBMIT, 1).get(0).claim();
        clock.advance(LEASE);
        Claim second = claim(ClaimPhase.SUBMIT, 1).get(0).claim();
        assertThat(second.token()).isNotEqualTo(first.token());
        TaskRecord before = repository.find(first.taskId()).orElseThrow();

        assertThat(repository.renew(first, LEASE)).isFalse();
        assertThat(repository.recordSubmitAttempt(first)).isFalse();
        assertThat(repository.applyOutcome(first, new OutcomeWrite(StoredSnapshot.failed("x", "y"), null, null,
                null))).isFalse();
        assertThat(repository.releaseAfterFailure(first, new FailureWrite("boom", clock.now(), clock.now(), true,
                null))).isFalse();
        assertThat(repository.releaseCancelled(first)).isFalse();

        assertThat(repository.find(first.taskId())).contains(before);
    }

    @Test
    void renewalNeverShortensAndFailureReleaseCountsTheError() {
        create();
        Claim claim = claim(ClaimPhase.SUBMIT, 1).get(0).claim();
        clock.stepWallClock(Duration.ofSeconds(-60));
        assertThat(repository.renew(claim, LEASE)).isTrue();
        assertThat(repository.find(claim.taskId()).orElseThrow().lease().expiresAt()).isEqualTo(claim.expiresAt());

        Instant failedAt = clock.now();
        assertThat(repository.releaseAfterFailure(claim, new FailureWrite("boom", failedAt,
                failedAt.plusSeconds(2), false, null))).isTrue();
        TaskRecord stored = repository.find(claim.taskId()).orElseThrow();
        assertThat(stored.control().consecutiveErrorCount()).isEqualTo(1);
        assertThat(stored.control().lastPollError()).isEqualTo("boom");
        assertThat(stored.control().nextControlAt()).isEqualTo(failedAt.plusSeconds(2));
        assertThat(stored.lease().isHeld()).isFalse();
    }

    @Test
    void cancelRequests() {
        TaskRecord neverSent = create();
        assertThat(repository.requestCancel(neverSent.id())).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        assertThat(repository.find(neverSent.id()).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(repository.requestCancel(neverSent.id())).isEqualTo(CancelRequestOutcome.ALREADY_TERMINAL);
        assertThat(repository.requestCancel(TaskId.of("nope"))).isEqualTo(CancelRequestOutcome.NOT_FOUND);

        TaskRecord sent = create();
        Claim submit = claim(ClaimPhase.SUBMIT, 1).get(0).claim();
        repository.recordSubmitAttempt(submit);
        repository.applySubmitted(submit, new SubmitWrite("r-2", new StoredSnapshot(TaskStatus.WORKING, null, null,
                false, null, null, null), null, "v", null, clock.now(), null));
        Claim poll = claim(ClaimPhase.POLL, 1).get(0).claim();

        assertThat(repository.requestCancel(sent.id())).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(repository.find(sent.id()).orElseThrow().lease().isHeld()).isFalse();
        assertThat(repository.renew(poll, LEASE)).isFalse();
        Claim cancel = claim(ClaimPhase.CANCEL, 1).get(0).claim();
        assertThat(repository.requestCancel(sent.id())).isEqualTo(CancelRequestOutcome.ALREADY_REQUESTED);
        assertThat(repository.renew(cancel, LEASE)).isTrue();
    }

    @Test
    void notificationOutboxDeliversNewestVersionAfterTheFrozenOne() {
        TaskRecord task = create();
        Claim claim = claim(ClaimPhase.SUBMIT, 1).get(0).claim();
        StoredSnapshot input = new StoredSnapshot(TaskStatus.INPUT_REQUIRED, null, null, false, null, null, "{}");
        repository.applySubmitted(claim, new SubmitWrite("r-3", input, null, "v", null, clock.now(),
                AttentionEvent.forSnapshot(task.id(), "srv", "tool", input).orElseThrow()));

        NotificationClaimRequest request = new NotificationClaimRequest(WORKER, 10, LEASE);
        NotificationClaim delivery = repository.claimNotifications(request).get(0);
        assertThat(delivery.version()).isEqualTo(1);
        assertThat(delivery.attempt()).isEqualTo(1);
        assertThat(repository.markDispatched(delivery)).isTrue();

        Claim poll = claim(ClaimPhase.POLL, 1).get(0).claim();
        StoredSnapshot done = new StoredSnapshot(TaskStatus.COMPLETED, null, "1", false, null, null, null);
        repository.applyOutcome(poll, new OutcomeWrite(done, null, null,
                AttentionEvent.forSnapshot(task.id(), "srv", "tool", done).orElseThrow()));
        assertThat(repository.find(task.id()).orElseThrow().outbox().dispatchVersion()).isEqualTo(1);

        assertThat(repository.finishNotification(delivery)).isTrue();
        assertThat(repository.find(task.id()).orElseThrow().outbox().status()).isEqualTo(NotificationStatus.PENDING);
        NotificationClaim newer = repository.claimNotifications(request).get(0);
        assertThat(newer.version()).isEqualTo(2);
        assertThat(repository.deadLetterNotification(newer, "gone")).isTrue();
        TaskRecord.Outbox outbox = repository.find(task.id()).orElseThrow().outbox();
        assertThat(outbox.status()).isEqualTo(NotificationStatus.DEAD_LETTER);
        assertThat(outbox.notifiedVersion()).isEqualTo(2);
        assertThat(repository.claimNotifications(request)).isEmpty();
    }

    @Test
    void listsCountsAndWorkers() {
        TaskRecord a = create();
        TaskRecord b = create();
        TaskRecord c = create();
        repository.requestCancel(b.id());

        assertThat(repository.list(TaskQuery.all(2))).extracting(TaskRecord::id).containsExactly(c.id(), b.id());
        assertThat(repository.list(new TaskQuery(null, null, 10, b.id()))).extracting(TaskRecord::id)
                .containsExactly(a.id());
        assertThat(repository.list(new TaskQuery(TaskStatus.PENDING, "srv", 10, null))).extracting(TaskRecord::id)
                .containsExactly(c.id(), a.id());
        assertThat(repository.countByStatus()).containsEntry(TaskStatus.PENDING, 2L)
                .containsEntry(TaskStatus.CANCELLED, 1L).containsEntry(TaskStatus.FAILED, 0L).hasSize(6);

        repository.heartbeat(new WorkerInfo(WORKER, "host", 42, clock.now()));
        clock.advance(Duration.ofSeconds(3));
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusSeconds(1);
        repository.heartbeat(new WorkerInfo(WORKER, "host", 42, clock.now().minusSeconds(3)));
        Instant after = Instant.now().plusSeconds(1);
        assertThat(repository.workers()).singleElement().satisfies(worker -> {
            // stamped by the database's clock (this machine's for the embedded server), not the manual clock
            assertThat(worker.lastSeenAt()).isBetween(before, after);
            assertThat(worker.lastSeenAt().getNano() % 1_000_000).as("millisecond precision").isZero();
            assertThat(worker.startedAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
            assertThat(worker.pid()).isEqualTo(42);
        });
        repository.removeWorker(WORKER);
        assertThat(repository.workers()).isEmpty();
    }
}
