package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link RetentionStore} on a task store: extend it, implement the fixture's methods and
 * {@link #retentionOf}. A finished task goes once it is older than the cutoff of its status, or once its requested
 * ttl (counted from creation) has passed; a task that is not finished never goes; a delivery still to make keeps its
 * task, a dead letter goes with it; batches are bounded, counts say what a purge would delete, and purges from two
 * handles at once delete every candidate exactly once.
 */
public abstract class RetentionContract extends ContractFixture {
    private static final Duration HOUR = Duration.ofHours(1);

    /** The retention store on the database of {@code repository}. */
    protected abstract RetentionStore retentionOf(CloseableTaskRepository repository);

    private RetentionStore retention() {
        return retentionOf(repo);
    }

    @Test
    void aFinishedTaskGoesOnlyOnceOlderThanItsStatusCutoffAndNothingElseGoes() {
        TaskId pending = create();
        TaskId working = working();
        TaskId completed = finished(TaskStatus.COMPLETED);
        TaskId failed = finished(TaskStatus.FAILED);
        TaskId cancelled = finished(TaskStatus.CANCELLED);
        advance(HOUR);

        // cutoffs before they finished: nothing
        for (TaskStatus status : TaskStatus.TERMINAL) {
            assertThat(retention().countFinished(status, now().minus(HOUR))).isZero();
            assertThat(retention().purgeFinished(status, now().minus(HOUR), 500)).isZero();
        }
        assertThat(retention().purgeFinished(TaskStatus.COMPLETED, now(), 500)).isEqualTo(1);
        assertThat(repo.find(completed)).isEmpty();
        assertThat(repo.find(failed)).as("another status keeps its own cutoff").isPresent();
        assertThat(repo.find(cancelled)).isPresent();

        assertThat(retention().purgeFinished(TaskStatus.FAILED, now(), 500)).isEqualTo(1);
        assertThat(retention().purgeFinished(TaskStatus.CANCELLED, now(), 500)).isEqualTo(1);
        assertThat(repo.find(failed)).isEmpty();
        assertThat(repo.find(cancelled)).isEmpty();

        advance(Duration.ofDays(365));
        for (TaskStatus status : TaskStatus.TERMINAL) {
            assertThat(retention().purgeFinished(status, now(), 500)).isZero();
        }
        assertThat(retention().purgeExpired(now(), 500)).isZero();
        assertThat(repo.find(pending)).as("a task that is not finished never goes").isPresent();
        assertThat(repo.find(working)).isPresent();
    }

    @Test
    void batchesAreBoundedAndCountsSayWhatAPurgeWouldDelete() {
        for (int i = 0; i < 5; i++) {
            finished(TaskStatus.COMPLETED);
        }
        advance(HOUR);
        assertThat(retention().countFinished(TaskStatus.COMPLETED, now())).isEqualTo(5);
        assertThat(retention().purgeFinished(TaskStatus.COMPLETED, now(), 2)).isEqualTo(2);
        assertThat(retention().countFinished(TaskStatus.COMPLETED, now())).isEqualTo(3);
        assertThat(retention().purgeFinished(TaskStatus.COMPLETED, now(), 2)).isEqualTo(2);
        assertThat(retention().purgeFinished(TaskStatus.COMPLETED, now(), 2)).isEqualTo(1);
        assertThat(retention().purgeFinished(TaskStatus.COMPLETED, now(), 2)).isZero();
        assertThat(allRows()).isEmpty();
    }

    @Test
    void aRequestedTtlEndsRetentionOnceItPassedAndTheTaskFinished() {
        TaskId shortLived = createWithTtl(Duration.ofMinutes(10).toMillis());
        TaskId runningLong = createWithTtl(Duration.ofMinutes(10).toMillis());
        TaskId noTtl = create();
        finish(shortLived, TaskStatus.COMPLETED);
        finish(noTtl, TaskStatus.COMPLETED);
        advance(Duration.ofMinutes(9));
        assertThat(retention().countExpired(now())).isZero();
        assertThat(retention().purgeExpired(now(), 500)).isZero();

        advance(Duration.ofMinutes(1));
        assertThat(retention().countExpired(now())).isEqualTo(1);
        assertThat(retention().purgeExpired(now(), 500)).isEqualTo(1);
        assertThat(repo.find(shortLived)).isEmpty();
        assertThat(repo.find(runningLong)).as("its ttl passed, but it has not finished").isPresent();
        assertThat(repo.find(noTtl)).as("no ttl: only its status retention ends it").isPresent();

        finish(runningLong, TaskStatus.FAILED);
        assertThat(retention().purgeExpired(now(), 500)).as("finished after its ttl passed").isEqualTo(1);
        assertThat(repo.find(runningLong)).isEmpty();
    }

    @Test
    void aDeliveryStillToMakeKeepsItsTaskAndADeadLetterGoesWithIt() {
        TaskId undelivered = completedWithEvent();
        TaskId dead = completedWithEvent();
        List<NotificationClaim> claims = claimNotifications(A, 10);
        NotificationClaim deadClaim = claims.stream().filter(c -> c.taskId().equals(dead)).findFirst()
                .orElseThrow();
        assertThat(repo.markDispatched(deadClaim)).isTrue();
        assertThat(repo.deadLetterNotification(deadClaim, "HTTP 410")).isTrue();
        advance(HOUR);

        assertThat(retention().countFinished(TaskStatus.COMPLETED, now())).isEqualTo(1);
        assertThat(retention().purgeFinished(TaskStatus.COMPLETED, now(), 500)).isEqualTo(1);
        assertThat(repo.find(dead)).isEmpty();
        assertThat(repo.find(undelivered)).as("its delivery is claimed, not made").isPresent();
    }

    @Test
    void aStatusThatIsNotFinishedOrABatchOfNothingIsRefused() {
        assertThatThrownBy(() -> retention().purgeFinished(TaskStatus.WORKING, now(), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("working");
        assertThatThrownBy(() -> retention().countFinished(TaskStatus.PENDING, now()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> retention().purgeFinished(TaskStatus.COMPLETED, now(), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> retention().purgeExpired(now(), -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void purgesFromTwoHandlesAtOnceDeleteEveryCandidateOnce() throws Exception {
        int rows = 300;
        for (int i = 0; i < rows; i++) {
            finished(TaskStatus.COMPLETED);
        }
        TaskId live = working();
        advance(HOUR);
        List<RetentionStore> handles = List.of(retention(), retentionOf(peer()), retention(), retentionOf(peer()));
        ExecutorService pool = Executors.newFixedThreadPool(handles.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> deleted = new ArrayList<>();
            for (RetentionStore handle : handles) {
                deleted.add(pool.submit(() -> {
                    start.await();
                    int mine = 0;
                    int batch;
                    while ((batch = handle.purgeFinished(TaskStatus.COMPLETED, now(), 7)) > 0) {
                        mine += batch;
                    }
                    return mine;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> future : deleted) {
                total += future.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(rows);
        } finally {
            pool.shutdownNow();
        }
        assertThat(allRows()).extracting(TaskRecord::id).containsExactly(live);
    }

    private List<TaskRecord> allRows() {
        return repo.list(new TaskQuery(null, null, TaskQuery.MAX_LIMIT, null));
    }

    /** A task finished now in {@code status}, its attention event delivered. */
    private TaskId finished(TaskStatus status) {
        TaskId id = create();
        finish(id, status);
        return id;
    }

    /** Brings a pending task to {@code status} the way workers do, and delivers its events. */
    private void finish(TaskId id, TaskStatus status) {
        if (status == TaskStatus.CANCELLED) {
            assertThat(repo.requestCancel(id)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        } else {
            Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
            assertThat(repo.recordSubmitAttempt(submit)).isTrue();
            assertThat(repo.applySubmitted(submit, submitted("r-" + id, null))).isTrue();
            Claim poll = claimRow(ClaimPhase.POLL, A, id);
            assertThat(repo.applyOutcome(poll, outcome(id, status, null))).isTrue();
        }
        deliverAll();
    }

    private void deliverAll() {
        List<NotificationClaim> due;
        while (!(due = claimNotifications(B, 50)).isEmpty()) {
            for (NotificationClaim claim : due) {
                assertThat(repo.markDispatched(claim)).isTrue();
                assertThat(repo.finishNotification(claim)).isTrue();
            }
        }
    }
}
