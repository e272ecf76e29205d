package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link TaskHistory} on a task store: extend it, implement the fixture's methods,
 * {@link #historyOf} and {@link #retentionOf}. Submit and cancel claims are recorded with their worker and the
 * store's time, a takeover (of any phase) with the owner and phase of the lease it took, a poll claim of a free lease
 * is not; events come back in the order of recording, and go with their task when retention deletes it.
 */
public abstract class TaskHistoryContract extends ContractFixture {

    /** The claim history on the database of {@code repository}. */
    protected abstract TaskHistory historyOf(CloseableTaskRepository repository);

    /** The retention store on the database of {@code repository}. */
    protected abstract RetentionStore retentionOf(CloseableTaskRepository repository);

    private List<TaskEvent> history(TaskId id) {
        return historyOf(repo).history(id);
    }

    @Test
    void aNewTaskAndAnUnknownOneHaveNoHistory() {
        TaskId id = create();
        assertThat(history(id)).isEmpty();
        assertThat(history(TaskId.of("no-such-task"))).isEmpty();
    }

    @Test
    void aTaskCreatedClaimedRecordsItsSubmitClaim() {
        TaskRecord created = repo.create(new NewTask(ids.newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null)
                .claimedBy(new CreateClaim(A, ids.newClaimToken(), LEASE)));

        assertThat(history(created.id())).containsExactly(new TaskEvent(created.id(), now(), TaskEvent.Kind.CLAIMED,
                ClaimPhase.SUBMIT, A, null, null));
    }

    @Test
    void submitAndCancelClaimsAreRecordedWithWorkerAndTimeAndAPollOfAFreeLeaseIsNot() {
        TaskId id = create();
        Instant submitAt = now();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo.recordSubmitAttempt(submit)).isTrue();
        assertThat(repo.applySubmitted(submit, submitted("r-" + id, null))).isTrue();

        advance(Duration.ofSeconds(5));
        Claim poll = claimRow(ClaimPhase.POLL, B, id);
        assertThat(repo.applyOutcome(poll, outcome(id, TaskStatus.WORKING, now()))).isTrue();

        advance(Duration.ofSeconds(5));
        assertThat(repo.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        Instant cancelAt = now();
        claimRow(ClaimPhase.CANCEL, B, id);

        assertThat(history(id)).containsExactly(
                new TaskEvent(id, submitAt, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, A, null, null),
                new TaskEvent(id, cancelAt, TaskEvent.Kind.CLAIMED, ClaimPhase.CANCEL, B, null, null));
    }

    @Test
    void aTakeoverNamesTheOwnerAndPhaseOfTheExpiredLease() {
        TaskId id = create();
        Instant first = now();
        claimRow(ClaimPhase.SUBMIT, A, id);
        advance(LEASE.plusSeconds(1));
        Instant second = now();
        Claim retry = claimRow(ClaimPhase.SUBMIT, B, id);
        assertThat(repo.recordSubmitAttempt(retry)).isTrue();
        assertThat(repo.applySubmitted(retry, submitted("r-" + id, null))).isTrue();

        // a poll claim is recorded when it takes over an expired poll lease
        advance(Duration.ofSeconds(1));
        claimRow(ClaimPhase.POLL, B, id);
        advance(LEASE.plusSeconds(1));
        Instant third = now();
        claimRow(ClaimPhase.POLL, A, id);

        assertThat(history(id)).containsExactly(
                new TaskEvent(id, first, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, A, null, null),
                new TaskEvent(id, second, TaskEvent.Kind.TAKEN_OVER, ClaimPhase.SUBMIT, B, A, ClaimPhase.SUBMIT),
                new TaskEvent(id, third, TaskEvent.Kind.TAKEN_OVER, ClaimPhase.POLL, A, B, ClaimPhase.POLL));
    }

    @Test
    void aSubmitClaimAfterAReleaseIsRecordedAgain() {
        TaskId id = create();
        Instant first = now();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo.releaseAfterFailure(claim, failure("connection refused", now().plusSeconds(10)))).isTrue();
        advance(Duration.ofSeconds(10));
        Instant second = now();
        claimRow(ClaimPhase.SUBMIT, B, id);
        assertThat(history(id)).containsExactly(
                new TaskEvent(id, first, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, A, null, null),
                new TaskEvent(id, second, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, B, null, null));
    }

    @Test
    void aBatchOfClaimsRecordsOneEventPerTaskAndEachTaskReadsOnlyItsOwn() {
        TaskId one = create();
        TaskId two = create();
        TaskId three = create();
        assertThat(claim(ClaimPhase.SUBMIT, A, 10)).hasSize(3);
        for (TaskId id : List.of(one, two, three)) {
            assertThat(history(id)).singleElement().satisfies(event -> {
                assertThat(event.taskId()).isEqualTo(id);
                assertThat(event.worker()).isEqualTo(A);
                assertThat(event.kind()).isEqualTo(TaskEvent.Kind.CLAIMED);
            });
        }
    }

    @Test
    void theHistoryGoesWithItsTaskWhenRetentionDeletesIt() {
        TaskId kept = create();
        claimRow(ClaimPhase.SUBMIT, A, kept);
        TaskId ended = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, B, ended);
        assertThat(repo.recordSubmitAttempt(submit)).isTrue();
        assertThat(repo.applySubmitted(submit, submitted("r-" + ended, null))).isTrue();
        Claim poll = claimRow(ClaimPhase.POLL, B, ended);
        // no attention event: no delivery to make, which would keep the task
        assertThat(repo.applyOutcome(poll, new OutcomeWrite(snapshot(TaskStatus.COMPLETED), null, null, null)))
                .isTrue();
        assertThat(history(ended)).hasSize(1);

        advance(Duration.ofHours(1));
        assertThat(retentionOf(repo).purgeFinished(TaskStatus.COMPLETED, now(), 500)).isEqualTo(1);
        assertThat(repo.find(ended)).isEmpty();
        assertThat(history(ended)).as("purged with its task").isEmpty();
        assertThat(history(kept)).as("a task retention keeps keeps its history").hasSize(1);
    }
}
