package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: group commit and work-arrival signals. The fenced writes of many claims run in one
 * transaction, each with its own fence and outcome; when the work throws, none of them is kept. A task created, a
 * cancel requested or an answer stored wakes the store's work-arrival listeners, also those of another handle on
 * the same store (another process).
 */
public interface GroupCommitContract extends RepositoryFixture {
    long SIGNAL_WAIT_SECONDS = 10;

    /** Thrown by a test's work to make the transaction roll back. */
    final class Boom extends RuntimeException {
        Boom() {
            super("boom");
        }
    }

    @Test
    default void writesOfSeveralClaimsCommitTogetherEachWithItsOwnOutcome() {
        TaskId first = create();
        TaskId second = working();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, first);
        Claim poll = claimRow(ClaimPhase.POLL, A, second);

        List<Boolean> outcomes = repo().inOneTransaction(() -> List.of(repo().recordSubmitAttempt(submit),
                repo().applyOutcome(poll, outcome(second, TaskStatus.COMPLETED, null))));

        assertThat(outcomes).containsExactly(true, true);
        assertThat(record(first).control().submitAttemptedAt()).isEqualTo(now());
        assertThat(record(second).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(record(second).lease().isHeld()).isFalse();
    }

    @Test
    default void aRefusedWriteInsideChangesNothingAndTheOthersStillCommit() {
        TaskId stale = create();
        TaskId live = create();
        Claim lost = claimRow(ClaimPhase.SUBMIT, A, stale);
        assertThat(repo().releaseCancelled(lost)).isTrue();
        Claim held = claimRow(ClaimPhase.SUBMIT, B, live);
        TaskRecord staleBefore = record(stale);

        List<Boolean> outcomes = repo().inOneTransaction(() -> List.of(repo().recordSubmitAttempt(lost),
                repo().recordSubmitAttempt(held)));

        assertThat(outcomes).containsExactly(false, true);
        assertThat(record(stale)).isEqualTo(staleBefore);
        assertThat(record(live).control().submitAttemptedAt()).isEqualTo(now());
    }

    @Test
    default void whenTheWorkThrowsNoWriteInsideIsKept() {
        TaskId first = create();
        TaskId second = working();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, first);
        Claim poll = claimRow(ClaimPhase.POLL, A, second);
        TaskRecord firstBefore = record(first);
        TaskRecord secondBefore = record(second);

        assertThatThrownBy(() -> repo().inOneTransaction(() -> {
            assertThat(repo().recordSubmitAttempt(submit)).isTrue();
            assertThat(repo().applyOutcome(poll, outcome(second, TaskStatus.COMPLETED, null))).isTrue();
            throw new Boom();
        })).isInstanceOf(Boom.class);

        assertThat(record(first)).isEqualTo(firstBefore);
        assertThat(record(second)).isEqualTo(secondBefore);
        assertThat(repo().applyOutcome(poll, outcome(second, TaskStatus.COMPLETED, null)))
                .as("the claim is still held after the rollback").isTrue();
    }

    @Test
    default void aDuplicateRemoteIdInsideRollsBackTheWholeTransaction() {
        TaskId holder = working();
        String taken = record(holder).state().remoteTaskId();
        TaskId first = create();
        TaskId second = create();
        Claim attempt = claimRow(ClaimPhase.SUBMIT, A, first);
        Claim duplicate = claimRow(ClaimPhase.SUBMIT, A, second);
        TaskRecord firstBefore = record(first);
        TaskRecord secondBefore = record(second);

        assertThatThrownBy(() -> repo().inOneTransaction(() -> {
            repo().recordSubmitAttempt(attempt);
            return repo().applySubmitted(duplicate, submitted(taken, null));
        })).isInstanceOf(DuplicateTaskException.class);

        assertThat(record(first)).isEqualTo(firstBefore);
        assertThat(record(second)).isEqualTo(secondBefore);
        assertThat(repo().recordSubmitAttempt(attempt)).as("the store is usable after the rollback").isTrue();
    }

    @Test
    default void aNestedTransactionJoinsTheOuterOne() {
        TaskId first = create();
        TaskId second = create();
        Claim one = claimRow(ClaimPhase.SUBMIT, A, first);
        Claim two = claimRow(ClaimPhase.SUBMIT, A, second);
        TaskRecord firstBefore = record(first);
        TaskRecord secondBefore = record(second);

        assertThatThrownBy(() -> repo().inOneTransaction(() -> {
            repo().recordSubmitAttempt(one);
            repo().inOneTransaction(() -> repo().recordSubmitAttempt(two));
            throw new Boom();
        })).isInstanceOf(Boom.class);

        assertThat(record(first)).isEqualTo(firstBefore);
        assertThat(record(second)).isEqualTo(secondBefore);
    }

    @Test
    default void notificationWritesCanBeGroupedToo() {
        completedWithEvent();
        completedWithEvent();
        List<NotificationClaim> deliveries = claimNotifications(A, 10);
        assertThat(deliveries).hasSize(2);

        List<Boolean> dispatched = repo().inOneTransaction(() -> deliveries.stream()
                .map(repo()::markDispatched).toList());
        List<Boolean> finished = repo().inOneTransaction(() -> deliveries.stream()
                .map(repo()::finishNotification).toList());

        assertThat(dispatched).containsExactly(true, true);
        assertThat(finished).containsExactly(true, true);
        for (NotificationClaim delivery : deliveries) {
            TaskRecord row = record(delivery.taskId());
            assertThat(row.outbox().notifiedVersion()).isEqualTo(row.outbox().eventVersion());
        }
    }

    @Test
    default void creatingATaskSignalsWorkArrival() throws InterruptedException {
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription ignored = repo().onWorkArrival(signals::release)) {
            create();
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS)).as("signal after create").isTrue();
        }
    }

    @Test
    default void aTaskCreatedThroughAnotherHandleSignalsToo() throws InterruptedException {
        TaskRepository other = peer();
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription ignored = repo().onWorkArrival(signals::release)) {
            other.create(new NewTask(ids().newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null));
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("signal after another handle's create").isTrue();
        }
    }

    @Test
    default void aCancelRequestAndAnAnswerSignalWorkArrival() throws InterruptedException {
        TaskId running = working();
        TaskId asking = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, asking);
        assertThat(repo().applyOutcome(poll, outcome(asking, TaskStatus.INPUT_REQUIRED, now().plusSeconds(60))))
                .isTrue();
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription ignored = repo().onWorkArrival(signals::release)) {
            assertThat(repo().requestCancel(running)).isEqualTo(CancelRequestOutcome.REQUESTED);
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS)).as("signal after cancel").isTrue();
            signals.drainPermits();
            assertThat(repo().answerInput(asking, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS)).as("signal after answer").isTrue();
        }
    }
}
