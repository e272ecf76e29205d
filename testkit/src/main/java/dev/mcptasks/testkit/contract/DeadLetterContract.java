package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: dead letters. They are listed newest first (by when the version died) in pages, and a replay
 * takes one back to deliverable, conditional on its status, for the version that died unless a newer one was
 * recorded.
 */
public interface DeadLetterContract extends RepositoryFixture {
    int REPLAYERS = 6;

    private static List<TaskId> idsOf(List<TaskRecord> records) {
        return records.stream().map(TaskRecord::id).toList();
    }

    /** Claims the one due delivery, which must be of {@code id}. */
    private NotificationClaim deliveryOf(TaskId id) {
        List<NotificationClaim> claims = claimNotifications(A, 10);
        assertThat(claims).extracting(NotificationClaim::taskId).containsExactly(id);
        return claims.get(0);
    }

    /** Sends the due delivery of {@code id} and dead-letters it with {@code error}. */
    private NotificationClaim deadLetter(TaskId id, String error) {
        NotificationClaim claim = deliveryOf(id);
        assertThat(repo().markDispatched(claim)).isTrue();
        assertThat(repo().deadLetterNotification(claim, error)).isTrue();
        return claim;
    }

    /** A completed task whose only event (version 1) died after one counted failure and a second send. */
    private TaskId deadAfterTwoSends() {
        TaskId id = completedWithEvent();
        NotificationClaim first = deliveryOf(id);
        assertThat(repo().markDispatched(first)).isTrue();
        assertThat(repo().retryNotification(first, "HTTP 500", now().plusSeconds(5), true)).isTrue();
        advance(Duration.ofSeconds(5));
        deadLetter(id, "failed 2 times, last: HTTP 500");
        return id;
    }

    @Test
    default void aDeadLetterRecordsWhenItDiedAndIsListedNewestFirstInPages() {
        TaskId delivered = completedWithEvent();
        NotificationClaim delivery = deliveryOf(delivered);
        assertThat(repo().markDispatched(delivery)).isTrue();
        assertThat(repo().finishNotification(delivery)).isTrue();
        TaskId oldest = completedWithEvent();
        advance(Duration.ofSeconds(3));
        deadLetter(oldest, "HTTP 410");
        assertThat(outbox(oldest).nextAt()).as("when it died").isEqualTo(now());
        advance(Duration.ofSeconds(1));
        TaskId second = completedWithEvent();
        deadLetter(second, "HTTP 404");
        TaskId third = completedWithEvent();
        deadLetter(third, "HTTP 404");
        // an old version died but a newer one is pending: not a dead letter
        TaskId superseded = working();
        pollTo(superseded, TaskStatus.INPUT_REQUIRED);
        NotificationClaim old = deliveryOf(superseded);
        pollTo(superseded, TaskStatus.COMPLETED);
        assertThat(repo().deadLetterNotification(old, "HTTP 404")).isTrue();
        completedWithEvent();

        assertThat(repo().listDeadLetters(DeadLetterQuery.first(10))).containsExactly(record(third), record(second),
                record(oldest));
        List<TaskRecord> page = repo().listDeadLetters(DeadLetterQuery.first(2));
        assertThat(idsOf(page)).containsExactly(third, second);
        DeadLetterQuery next = DeadLetterQuery.first(2).after(page.get(1));
        assertThat(idsOf(repo().listDeadLetters(next))).containsExactly(oldest);
        assertThat(repo().listDeadLetters(next.after(record(oldest)))).isEmpty();
        assertThat(idsOf(repo().listDeadLetters(DeadLetterQuery.first(1).after(record(third)))))
                .as("same instant: the lower id comes after").containsExactly(second);
    }

    @Test
    default void aReplayDeliversTheVersionThatDiedAgainWithAFreshBudgetAndNewIdempotencyKeys() {
        TaskId id = deadAfterTwoSends();
        TaskRecord.Outbox dead = outbox(id);
        assertThat(dead.status()).isEqualTo(NotificationStatus.DEAD_LETTER);
        assertThat(dead.attemptCount()).isEqualTo(1);
        advance(Duration.ofSeconds(7));

        assertThat(repo().replayDeadLetter(id)).isEqualTo(ReplayOutcome.REPLAYED);
        assertThat(outbox(id)).isEqualTo(new TaskRecord.Outbox(NotificationStatus.PENDING, dead.eventFingerprint(),
                dead.eventPayload(), 1, 0, 1, 2, dead.dispatchEvent(), 0, "failed 2 times, last: HTTP 500", now(),
                null, null, null));
        assertThat(repo().listDeadLetters(DeadLetterQuery.first(10))).isEmpty();

        NotificationClaim again = deliveryOf(id);
        assertThat(again.version()).isEqualTo(1);
        assertThat(again.eventJson()).isEqualTo(dead.dispatchEvent());
        assertThat(again.attempt()).isEqualTo(3);
        assertThat(again.idempotencyKey()).isEqualTo(NotificationRules.idempotencyKey(id, 1, 3));
        assertThat(repo().markDispatched(again)).isTrue();
        assertThat(repo().finishNotification(again)).isTrue();
        TaskRecord.Outbox delivered = outbox(id);
        assertThat(delivered.status()).isEqualTo(NotificationStatus.DELIVERED);
        assertThat(delivered.notifiedVersion()).isEqualTo(1);
        assertThat(delivered.error()).isNull();
        assertThat(claimNotifications(B, 10)).isEmpty();
    }

    @Test
    default void aReplayedVersionThatDiesAgainIsADeadLetterAgain() {
        TaskId id = deadAfterTwoSends();
        assertThat(repo().replayDeadLetter(id)).isEqualTo(ReplayOutcome.REPLAYED);
        advance(Duration.ofSeconds(2));

        deadLetter(id, "HTTP 410");
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.DEAD_LETTER);
        assertThat(outbox(id).notifiedVersion()).isEqualTo(1);
        assertThat(outbox(id).dispatchAttempt()).isEqualTo(3);
        assertThat(repo().listDeadLetters(DeadLetterQuery.first(10))).containsExactly(record(id));
        assertThat(repo().listDeadLetters(DeadLetterQuery.first(10)).get(0).outbox().nextAt()).isEqualTo(now());
    }

    @Test
    default void onlyADeadLetterCanBeReplayedAndAnythingElseIsLeftWhole() {
        TaskId pending = completedWithEvent();
        TaskRecord pendingBefore = record(pending);
        NotificationClaim delivery = deliveryOf(pending);
        TaskRecord claimedBefore = record(pending);
        assertThat(repo().replayDeadLetter(TaskId.of("task-missing"))).isEqualTo(ReplayOutcome.NOT_FOUND);

        assertThat(repo().replayDeadLetter(pending)).as("claimed").isEqualTo(ReplayOutcome.NOT_DEAD);
        assertThat(record(pending)).isEqualTo(claimedBefore);
        assertThat(repo().markDispatched(delivery)).isTrue();
        assertThat(repo().finishNotification(delivery)).isTrue();
        TaskRecord deliveredBefore = record(pending);
        assertThat(repo().replayDeadLetter(pending)).as("delivered").isEqualTo(ReplayOutcome.NOT_DEAD);
        assertThat(record(pending)).isEqualTo(deliveredBefore).isNotEqualTo(pendingBefore);
        TaskId quiet = create();
        assertThat(repo().replayDeadLetter(quiet)).as("no event").isEqualTo(ReplayOutcome.NOT_DEAD);

        TaskId dead = deadAfterTwoSends();
        assertThat(repo().replayDeadLetter(dead)).isEqualTo(ReplayOutcome.REPLAYED);
        TaskRecord replayed = record(dead);
        advance(Duration.ofSeconds(1));
        assertThat(repo().replayDeadLetter(dead)).as("replayed already").isEqualTo(ReplayOutcome.NOT_DEAD);
        assertThat(record(dead)).isEqualTo(replayed);
    }

    @Test
    default void aNewerEventRecordedBeforeTheReplayIsDeliveredWithoutIt() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        deadLetter(id, "HTTP 404");
        AttentionEvent newer = pollTo(id, TaskStatus.COMPLETED);
        TaskRecord pending = record(id);
        assertThat(pending.outbox().status()).isEqualTo(NotificationStatus.PENDING);

        assertThat(repo().replayDeadLetter(id)).isEqualTo(ReplayOutcome.NOT_DEAD);
        assertThat(record(id)).isEqualTo(pending);
        NotificationClaim next = deliveryOf(id);
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.eventJson()).isEqualTo(newer.payloadJson());
        assertThat(next.attempt()).isEqualTo(1);
    }

    @Test
    default void aNewerEventRecordedAfterTheReplaySupersedesTheReplayedVersion() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim first = deliveryOf(id);
        assertThat(repo().markDispatched(first)).isTrue();
        assertThat(repo().retryNotification(first, "HTTP 500", now(), true)).isTrue();
        deadLetter(id, "HTTP 410");
        assertThat(repo().replayDeadLetter(id)).isEqualTo(ReplayOutcome.REPLAYED);

        AttentionEvent newer = pollTo(id, TaskStatus.COMPLETED);
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.PENDING);
        NotificationClaim next = deliveryOf(id);
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.eventJson()).isEqualTo(newer.payloadJson());
        assertThat(next.attempt()).as("a new version starts its own budget").isEqualTo(1);
        assertThat(outbox(id).attemptCount()).isZero();
    }

    @Test
    default void concurrentReplaysOfOneDeadLetterReplayItExactlyOnce() throws Exception {
        TaskId id = deadAfterTwoSends();
        TaskRepository peer = peer();
        ExecutorService pool = Executors.newFixedThreadPool(REPLAYERS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<ReplayOutcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < REPLAYERS; i++) {
                TaskRepository handle = i % 2 == 0 ? repo() : peer;
                Callable<ReplayOutcome> replay = () -> {
                    start.await();
                    return handle.replayDeadLetter(id);
                };
                outcomes.add(pool.submit(replay));
            }
            start.countDown();
            List<ReplayOutcome> results = new ArrayList<>();
            for (Future<ReplayOutcome> outcome : outcomes) {
                results.add(outcome.get(1, TimeUnit.MINUTES));
            }
            assertThat(results).containsOnlyOnce(ReplayOutcome.REPLAYED)
                    .containsOnly(ReplayOutcome.REPLAYED, ReplayOutcome.NOT_DEAD);
        } finally {
            pool.shutdownNow();
        }
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(deliveryOf(id).attempt()).isEqualTo(3);
    }

    @Test
    default void aReplaySignalsWorkArrival() throws InterruptedException {
        TaskId id = deadAfterTwoSends();
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription ignored = repo().onWorkArrival(signals::release)) {
            assertThat(repo().replayDeadLetter(id)).isEqualTo(ReplayOutcome.REPLAYED);
            assertThat(signals.tryAcquire(30, TimeUnit.SECONDS)).as("signal after replay").isTrue();
        }
    }
}
