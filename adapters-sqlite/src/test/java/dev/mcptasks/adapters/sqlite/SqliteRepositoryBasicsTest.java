package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Round trips through the SQLite repository that the shared contract does not single out. */
class SqliteRepositoryBasicsTest {
    private static final WorkerId WORKER = WorkerId.of("w1");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private CloseableTaskRepository repository;

    @BeforeEach
    void open() {
        repository = SqliteFixture.open(dir.resolve("tasks.db"), clock, ids);
    }

    @AfterEach
    void close() {
        repository.close();
    }

    @Test
    void storesAClaimedSubmissionAndItsOutcome() {
        TaskRecord created = repository.create(SqliteFixture.newTask("t1"));
        assertThat(repository.find(TaskId.of("t1"))).contains(created);

        List<ClaimedTask> claimed = repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, 5,
                Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of()));
        assertThat(claimed).hasSize(1);
        assertThat(claimed.get(0).task().control().submitAttemptCount()).isEqualTo(1);
        assertThat(claimed.get(0).task().lease().owner()).isEqualTo(WORKER);
        assertThat(repository.recordSubmitAttempt(claimed.get(0).claim())).isTrue();

        StoredSnapshot working = new StoredSnapshot(TaskStatus.WORKING, "busy", null, false, null, null, null);
        assertThat(repository.applySubmitted(claimed.get(0).claim(), new SubmitWrite("r1", working, 60_000L,
                "2025-11-25", null, clock.now().plusSeconds(1), null))).isTrue();
        TaskRecord submitted = repository.find(TaskId.of("t1")).orElseThrow();
        assertThat(submitted.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(submitted.state().remoteTaskId()).isEqualTo("r1");
        assertThat(submitted.lease()).isEqualTo(TaskRecord.Lease.NONE);

        clock.advance(Duration.ofSeconds(1));
        ClaimedTask poll = repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL, WORKER, 5,
                Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of())).get(0);
        StoredSnapshot done = new StoredSnapshot(TaskStatus.COMPLETED, null, "{\"ok\":true}", false, null, null, null);
        assertThat(repository.applyOutcome(poll.claim(), new OutcomeWrite(done, null, null,
                dev.mcptasks.domain.AttentionEvent.forSnapshot(TaskId.of("t1"), "srv", "tool", done).orElseThrow())))
                .isTrue();
        TaskRecord completed = repository.find(TaskId.of("t1")).orElseThrow();
        assertThat(completed.state().completedAt()).isEqualTo(clock.now());
        assertThat(completed.outbox().eventVersion()).isEqualTo(1);
        assertThat(completed.state().remoteTtlMs()).isEqualTo(60_000L);
        assertThat(repository.applyOutcome(poll.claim(), new OutcomeWrite(done, null, null, null))).isFalse();
        assertThat(repository.countByStatus()).containsEntry(TaskStatus.COMPLETED, 1L)
                .containsEntry(TaskStatus.PENDING, 0L).hasSize(TaskStatus.values().length);
    }

    @Test
    void cancelsAnUnsentTaskLocally() {
        repository.create(SqliteFixture.newTask("t1"));
        assertThat(repository.requestCancel(TaskId.of("t1"))).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        assertThat(repository.requestCancel(TaskId.of("t1"))).isEqualTo(CancelRequestOutcome.ALREADY_TERMINAL);
        assertThat(repository.requestCancel(TaskId.of("nope"))).isEqualTo(CancelRequestOutcome.NOT_FOUND);
        TaskRecord row = repository.find(TaskId.of("t1")).orElseThrow();
        assertThat(row.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(row.outbox().eventVersion()).isEqualTo(1);
    }

    @Test
    void refusesADuplicateIdAndKeepsTheFirstRow() {
        TaskRecord first = repository.create(SqliteFixture.newTask("t1"));
        assertThatThrownBy(() -> repository.create(SqliteFixture.newTask("t1")))
                .isInstanceOf(DuplicateTaskException.class).hasMessageContaining("already exists");
        assertThat(repository.list(TaskQuery.all(10))).containsExactly(first);
    }

    @Test
    void registersWorkers() {
        repository.heartbeat(new WorkerInfo(WORKER, "host", 42, clock.now()));
        clock.advance(Duration.ofSeconds(5));
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        repository.heartbeat(new WorkerInfo(WORKER, "other", 43, clock.now()));
        Instant after = Instant.now().plusMillis(1);
        assertThat(repository.workers()).singleElement().satisfies(worker -> {
            assertThat(worker.host()).isEqualTo("host");
            // stamped by SQLite's own clock (this machine's), not by the worker's manual clock
            assertThat(worker.lastSeenAt()).isBetween(before, after);
        });
        repository.removeWorker(WORKER);
        assertThat(repository.workers()).isEmpty();
    }
}
