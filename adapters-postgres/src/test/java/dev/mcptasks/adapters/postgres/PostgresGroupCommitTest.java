package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit on PostgreSQL beyond the contract: a failed statement aborts the whole transaction, so a caller that
 * catches the failure inside the work must not be told the other writes were kept.
 */
class PostgresGroupCommitTest {
    private static final WorkerId WORKER = WorkerId.of("worker-a");
    private static final StoredSnapshot WORKING = new StoredSnapshot(TaskStatus.WORKING, null, null, false, null,
            null, null);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private CloseableTaskRepository repository;

    @BeforeEach
    void open() {
        repository = PostgresTaskRepositories.open(PostgresTestDatabase.freshSchema(), clock, ids,
                FencedWriteHook.NONE);
    }

    @AfterEach
    void close() {
        repository.close();
    }

    @Test
    void aFailureCaughtInsideTheWorkStillRollsBackAndIsThrown() {
        Claim holder = claimNew();
        assertThat(repository.applySubmitted(holder, submitted("taken"))).isTrue();
        Claim first = claimNew();
        Claim duplicate = claimNew();
        TaskRecord firstBefore = repository.find(first.taskId()).orElseThrow();

        assertThatThrownBy(() -> repository.inOneTransaction(() -> {
            assertThat(repository.recordSubmitAttempt(first)).isTrue();
            try {
                return repository.applySubmitted(duplicate, submitted("taken"));
            } catch (DuplicateTaskException swallowed) {
                return false; // a careless caller carries on as if the write had only been refused
            }
        })).isInstanceOf(DuplicateTaskException.class);

        assertThat(repository.find(first.taskId()).orElseThrow()).isEqualTo(firstBefore);
        assertThat(repository.recordSubmitAttempt(first)).as("the pool's connection is usable again").isTrue();
    }

    @Test
    void writesInsideOneTransactionAreInvisibleToOthersUntilItReturns() {
        Claim claim = claimNew();

        boolean seenOutside = repository.inOneTransaction(() -> {
            assertThat(repository.recordSubmitAttempt(claim)).isTrue();
            // another thread's read runs on another pooled connection, outside this transaction
            return readOnAnotherThread(claim).control().submitAttemptedAt() != null;
        });

        assertThat(seenOutside).isFalse();
        assertThat(repository.find(claim.taskId()).orElseThrow().control().submitAttemptedAt()).isNotNull();
    }

    private TaskRecord readOnAnotherThread(Claim claim) {
        TaskRecord[] read = new TaskRecord[1];
        Thread reader = new Thread(() -> read[0] = repository.find(claim.taskId()).orElseThrow());
        reader.start();
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(read[0]).as("the other thread's read").isNotNull();
        return read[0];
    }

    private Claim claimNew() {
        repository.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
        return repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, 1, Duration.ofMinutes(2),
                Duration.ofSeconds(30), Set.of())).get(0).claim();
    }

    private SubmitWrite submitted(String remoteId) {
        return new SubmitWrite(remoteId, WORKING, null, "v", null, clock.now().plusSeconds(5), null);
    }
}
