package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Repository contract topic: the notification outbox and its versioning rules ({@link NotificationRules}). */
public interface NotificationContract extends RepositoryFixture {

    @Test
    default void anEventMakesTheOutboxPendingAndDueNow() {
        TaskId id = working();
        advance(Duration.ofSeconds(1));
        AttentionEvent event = pollTo(id, TaskStatus.INPUT_REQUIRED);

        assertThat(outbox(id)).isEqualTo(new TaskRecord.Outbox(NotificationStatus.PENDING, event.fingerprint(),
                event.payloadJson(), 1, 0, 0, 0, null, 0, null, now(), null, null, null));
    }

    @Test
    default void aDeliveryFreezesTheEventCountsTheAttemptAndEndsDelivered() {
        TaskId id = completedWithEvent();
        String payload = outbox(id).eventPayload();

        NotificationClaim claim = claimOneNotification(A);
        assertThat(claim.taskId()).isEqualTo(id);
        assertThat(claim.version()).isEqualTo(1);
        assertThat(claim.eventJson()).isEqualTo(payload);
        assertThat(claim.attempt()).isEqualTo(1);
        assertThat(claim.expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(outbox(id)).isEqualTo(new TaskRecord.Outbox(NotificationStatus.CLAIMED,
                outbox(id).eventFingerprint(), payload, 1, 0, 1, 0, payload, 0, null, now(), A, claim.token(),
                now().plus(LEASE)));
        assertThat(repo().markDispatched(claim)).isTrue();
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.DISPATCHED);
        assertThat(outbox(id).dispatchAttempt()).isEqualTo(1);

        assertThat(repo().finishNotification(claim)).isTrue();
        TaskRecord.Outbox delivered = outbox(id);
        assertThat(delivered.status()).isEqualTo(NotificationStatus.DELIVERED);
        assertThat(delivered.notifiedVersion()).isEqualTo(1);
        assertThat(delivered.leaseOwner()).isNull();
        assertThat(delivered.leaseToken()).isNull();
        assertThat(delivered.leaseExpiresAt()).isNull();
        assertThat(claimNotifications(B, 10)).isEmpty();
    }

    @Test
    default void aDispatchingClaimLeavesTheRowAsAClaimAndItsMarkTogetherWould() {
        TaskId id = completedWithEvent();
        String payload = outbox(id).eventPayload();

        NotificationClaim claim = claimOneDispatched(A);
        assertThat(claim.taskId()).isEqualTo(id);
        assertThat(claim.version()).isEqualTo(1);
        assertThat(claim.eventJson()).isEqualTo(payload);
        assertThat(claim.attempt()).isEqualTo(1);
        assertThat(claim.expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(outbox(id)).isEqualTo(new TaskRecord.Outbox(NotificationStatus.DISPATCHED,
                outbox(id).eventFingerprint(), payload, 1, 0, 1, 1, payload, 0, null, now(), A, claim.token(),
                now().plus(LEASE)));
        assertThat(repo().markDispatched(claim)).as("already dispatched: nothing left to mark").isFalse();
        assertThat(claimNotifications(B, 10)).isEmpty();
        assertThat(repo().claimNotificationsDispatched(new NotificationClaimRequest(B, 10, LEASE))).isEmpty();

        assertThat(repo().finishNotification(claim)).isTrue();
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.DELIVERED);
        assertThat(outbox(id).notifiedVersion()).isEqualTo(1);
        assertThat(outbox(id).leaseOwner()).isNull();
    }

    @Test
    default void aDispatchingClaimOfAnExpiredDeliveryKeepsItsFrozenEventAndCountsTheNextAttempt() {
        TaskId id = working();
        AttentionEvent first = pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim lost = claimOneDispatched(A);
        AttentionEvent second = pollTo(id, TaskStatus.COMPLETED);
        advance(LEASE);

        NotificationClaim again = claimOneDispatched(B);
        assertThat(again.version()).isEqualTo(1);
        assertThat(again.eventJson()).isEqualTo(first.payloadJson());
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(outbox(id).dispatchAttempt()).isEqualTo(2);
        assertThat(repo().finishNotification(lost)).as("the expired owner's result").isFalse();
        assertThat(repo().finishNotification(again)).isTrue();

        NotificationClaim newer = claimOneDispatched(A);
        assertThat(newer.version()).isEqualTo(2);
        assertThat(newer.eventJson()).isEqualTo(second.payloadJson());
        assertThat(newer.attempt()).isEqualTo(1);
    }

    @Test
    default void aDispatchingClaimTakesDueRowsInOrderUpToItsLimit() {
        TaskId first = completedWithEvent();
        advance(Duration.ofMillis(1));
        TaskId second = completedWithEvent();
        advance(Duration.ofMillis(1));
        TaskId third = completedWithEvent();
        NotificationClaimRequest two = new NotificationClaimRequest(A, 2, LEASE);
        assertThat(repo().claimNotificationsDispatched(two)).extracting(NotificationClaim::taskId)
                .containsExactly(first, second);
        assertThat(repo().claimNotificationsDispatched(two)).extracting(NotificationClaim::taskId)
                .containsExactly(third);
        assertThat(repo().claimNotificationsDispatched(two)).isEmpty();
        assertThat(repo().claimNotificationsDispatched(new NotificationClaimRequest(A, 0, LEASE))).isEmpty();
    }

    ClaimToken TAKEN = ClaimToken.of("take-token-1");

    private DeliveryTake take(long priorEventVersion) {
        return new DeliveryTake(A, TAKEN, LEASE, priorEventVersion);
    }

    @Test
    default void aResultWriteTakesTheDeliveryOfItsNewEventAsADispatchingClaimWould() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        OutcomeWrite done = outcome(id, TaskStatus.COMPLETED, null);

        assertThat(repo().applyOutcome(poll, done.withTake(take(0)))).isTrue();

        String payload = done.event().payloadJson();
        assertThat(outbox(id)).isEqualTo(new TaskRecord.Outbox(NotificationStatus.DISPATCHED,
                done.event().fingerprint(), payload, 1, 0, 1, 1, payload, 0, null, now(), A, TAKEN,
                now().plus(LEASE)));
        assertThat(claimNotifications(B, 10)).isEmpty();
        NotificationClaim taken = new NotificationClaim(id, A, TAKEN, now().plus(LEASE), 1, payload, 1);
        assertThat(repo().finishNotification(taken)).isTrue();
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.DELIVERED);
        assertThat(outbox(id).notifiedVersion()).isEqualTo(1);
    }

    @Test
    default void aSubmitWriteThatFinishedAtOnceTakesTheDeliveryOfItsEvent() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();
        StoredSnapshot done = snapshot(TaskStatus.COMPLETED);
        AttentionEvent event = eventOf(id, done);

        assertThat(repo().applySubmitted(submit, new SubmitWrite(null, done, null, PROTOCOL, null, null, event)
                .withTake(take(0)))).isTrue();

        assertThat(outbox(id)).isEqualTo(new TaskRecord.Outbox(NotificationStatus.DISPATCHED, event.fingerprint(),
                event.payloadJson(), 1, 0, 1, 1, event.payloadJson(), 0, null, now(), A, TAKEN,
                now().plus(LEASE)));
        assertThat(record(id).state().status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    default void aTakeAfterAnEarlierDeliveredVersionFreezesTheNewOneWithAFreshBudget() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim first = claimOneDispatched(B);
        assertThat(repo().finishNotification(first)).isTrue();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        OutcomeWrite done = outcome(id, TaskStatus.COMPLETED, null);

        assertThat(repo().applyOutcome(poll, done.withTake(take(1)))).isTrue();

        TaskRecord.Outbox after = outbox(id);
        assertThat(after.status()).isEqualTo(NotificationStatus.DISPATCHED);
        assertThat(after.eventVersion()).isEqualTo(2);
        assertThat(after.notifiedVersion()).isEqualTo(1);
        assertThat(after.dispatchVersion()).isEqualTo(2);
        assertThat(after.dispatchEvent()).isEqualTo(done.event().payloadJson());
        assertThat(after.dispatchAttempt()).isEqualTo(1);
        assertThat(after.leaseToken()).isEqualTo(TAKEN);
    }

    @Test
    default void aTakeIsLeftToTheScanWhenAnEarlierVersionIsStillOwed() {
        TaskId pending = working();
        TaskId inFlight = working();
        pollTo(inFlight, TaskStatus.INPUT_REQUIRED);
        NotificationClaim held = claimOneDispatched(B);
        pollTo(pending, TaskStatus.INPUT_REQUIRED);

        for (TaskId id : List.of(pending, inFlight)) {
            Claim poll = claimRow(ClaimPhase.POLL, A, id);
            assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null).withTake(take(1)))).isTrue();
            assertThat(outbox(id).eventVersion()).isEqualTo(2);
            assertThat(outbox(id).leaseToken()).as("no take on %s", id).isNotEqualTo(TAKEN);
        }
        assertThat(outbox(pending).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(outbox(inFlight).status()).isEqualTo(NotificationStatus.DISPATCHED);
        assertThat(outbox(inFlight).dispatchVersion()).as("the frozen event stays").isEqualTo(1);
        assertThat(outbox(inFlight).leaseToken()).isEqualTo(held.token());
        assertThat(claimOneDispatched(A).taskId()).isEqualTo(pending);
    }

    @Test
    default void aTakeExpectingAnotherVersionOrWithoutANewEventTakesNothing() {
        TaskId moved = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, moved);
        assertThat(repo().applyOutcome(poll, outcome(moved, TaskStatus.COMPLETED, null).withTake(take(7)))).isTrue();
        assertThat(outbox(moved).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(outbox(moved).leaseOwner()).isNull();

        TaskId quiet = working();
        Claim again = claimRow(ClaimPhase.POLL, A, quiet);
        assertThat(repo().applyOutcome(again, outcome(quiet, TaskStatus.WORKING, now()).withTake(take(0)))).isTrue();
        assertThat(outbox(quiet).status()).isEqualTo(NotificationStatus.NONE);
        assertThat(outbox(quiet).leaseOwner()).isNull();
    }

    @Test
    default void batchedResultWritesTakeTheDeliveriesTheirElementsOffer() {
        TaskId taking = working();
        TaskId leaving = working();
        Claim first = claimRow(ClaimPhase.POLL, A, taking);
        Claim second = claimRow(ClaimPhase.POLL, A, leaving);
        TaskId submitted = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, submitted);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();
        StoredSnapshot done = snapshot(TaskStatus.COMPLETED);

        assertThat(repo().applyOutcomes(List.of(
                new ClaimedWrite<>(first, outcome(taking, TaskStatus.COMPLETED, null).withTake(take(0))),
                new ClaimedWrite<>(second, outcome(leaving, TaskStatus.COMPLETED, null))))).containsExactly(true, true);
        assertThat(repo().applySubmittedAll(List.of(new ClaimedWrite<>(submit,
                new SubmitWrite(null, done, null, PROTOCOL, null, null, eventOf(submitted, done))
                        .withTake(take(0)))))).containsExactly(true);

        for (TaskId id : List.of(taking, submitted)) {
            assertThat(outbox(id).status()).as("taken: %s", id).isEqualTo(NotificationStatus.DISPATCHED);
            assertThat(outbox(id).leaseOwner()).isEqualTo(A);
            assertThat(outbox(id).leaseToken()).isEqualTo(TAKEN);
            assertThat(outbox(id).leaseExpiresAt()).isEqualTo(now().plus(LEASE));
            assertThat(outbox(id).dispatchVersion()).isEqualTo(1);
            assertThat(outbox(id).dispatchAttempt()).isEqualTo(1);
        }
        assertThat(outbox(leaving).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(outbox(leaving).leaseOwner()).isNull();
    }

    @Test
    default void aRefusedResultWriteTakesNothing() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        Claim forged = new Claim(id, ClaimPhase.POLL, A, ClaimToken.of("forged"), poll.expiresAt());

        assertThat(repo().applyOutcome(forged, outcome(id, TaskStatus.COMPLETED, null).withTake(take(0)))).isFalse();
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.NONE);
        assertThat(outbox(id).leaseOwner()).isNull();
    }

    @Test
    default void theSameFingerprintDoesNotBumpTheVersion() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim claim = claimOneNotification(A);
        assertThat(repo().markDispatched(claim)).isTrue();
        assertThat(repo().finishNotification(claim)).isTrue();
        TaskRecord.Outbox delivered = outbox(id);

        advance(Duration.ofSeconds(30));
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        assertThat(outbox(id)).isEqualTo(delivered);
        assertThat(claimNotifications(A, 10)).isEmpty();
    }

    @Test
    default void anInFlightSnapshotIsNeverOverwrittenAndTheNewerEventIsDeliveredAfterIt() {
        TaskId id = working();
        AttentionEvent first = pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim inFlight = claimOneNotification(A);
        assertThat(repo().markDispatched(inFlight)).isTrue();

        AttentionEvent second = pollTo(id, TaskStatus.COMPLETED);
        TaskRecord.Outbox during = outbox(id);
        assertThat(during.status()).isEqualTo(NotificationStatus.DISPATCHED);
        assertThat(during.eventVersion()).isEqualTo(2);
        assertThat(during.eventPayload()).isEqualTo(second.payloadJson());
        assertThat(during.dispatchVersion()).isEqualTo(1);
        assertThat(during.dispatchEvent()).isEqualTo(first.payloadJson());
        assertThat(claimNotifications(B, 10)).isEmpty();

        advance(Duration.ofSeconds(1));
        assertThat(repo().finishNotification(inFlight)).isTrue();
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(outbox(id).notifiedVersion()).isEqualTo(1);
        assertThat(outbox(id).nextAt()).isEqualTo(now());
        NotificationClaim next = claimOneNotification(B);
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.eventJson()).isEqualTo(second.payloadJson());
        assertThat(next.attempt()).isEqualTo(1);
    }

    @Test
    default void aRetryRebuildsToTheNewestVersionWithAResetBudget() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim failing = claimOneNotification(A);
        assertThat(repo().markDispatched(failing)).isTrue();
        assertThat(repo().retryNotification(failing, "HTTP 500", now().plusSeconds(10), true)).isTrue();
        assertThat(outbox(id).attemptCount()).isEqualTo(1);

        AttentionEvent newer = pollTo(id, TaskStatus.COMPLETED);
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.RETRY);
        assertThat(claimNotifications(A, 10)).isEmpty();
        advance(Duration.ofSeconds(10));

        NotificationClaim rebuilt = claimOneNotification(A);
        assertThat(rebuilt.version()).isEqualTo(2);
        assertThat(rebuilt.eventJson()).isEqualTo(newer.payloadJson());
        assertThat(rebuilt.attempt()).isEqualTo(1);
        assertThat(outbox(id).attemptCount()).isZero();
        assertThat(outbox(id).dispatchAttempt()).isZero();
    }

    @Test
    default void aRetryOfTheSameVersionKeepsItsBudgetAndCountsOnlyCountedFailures() {
        TaskId id = completedWithEvent();
        NotificationClaim first = claimOneNotification(A);
        assertThat(repo().markDispatched(first)).isTrue();
        assertThat(repo().retryNotification(first, "HTTP 500", now().plusSeconds(5), true)).isTrue();
        TaskRecord.Outbox retry = outbox(id);
        assertThat(retry.status()).isEqualTo(NotificationStatus.RETRY);
        assertThat(retry.error()).isEqualTo("HTTP 500");
        assertThat(retry.nextAt()).isEqualTo(now().plusSeconds(5));
        assertThat(retry.leaseOwner()).isNull();
        advance(Duration.ofSeconds(5));

        NotificationClaim second = claimOneNotification(A);
        assertThat(second.version()).isEqualTo(1);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.idempotencyKey()).isEqualTo(NotificationRules.idempotencyKey(id, 1, 2));
        assertThat(repo().markDispatched(second)).isTrue();
        assertThat(repo().retryNotification(second, "HTTP 409", now().plusSeconds(5), false)).isTrue();
        assertThat(outbox(id).attemptCount()).isEqualTo(1);
        assertThat(outbox(id).dispatchAttempt()).isEqualTo(2);
    }

    @Test
    default void deadLetteringAnOldVersionKeepsANewerOnePending() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim old = claimOneNotification(A);
        assertThat(repo().markDispatched(old)).isTrue();
        AttentionEvent newer = pollTo(id, TaskStatus.FAILED);

        assertThat(repo().deadLetterNotification(old, "HTTP 410")).isTrue();
        TaskRecord.Outbox after = outbox(id);
        assertThat(after.status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(after.notifiedVersion()).isEqualTo(1);
        assertThat(after.error()).isEqualTo("HTTP 410");
        assertThat(after.nextAt()).isEqualTo(now());
        NotificationClaim next = claimOneNotification(B);
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.eventJson()).isEqualTo(newer.payloadJson());
    }

    @Test
    default void deadLetteringTheNewestVersionStopsDeliveryUntilANewEvent() {
        TaskId id = working();
        pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim claim = claimOneNotification(A);

        assertThat(repo().deadLetterNotification(claim, "HTTP 404")).isTrue();
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.DEAD_LETTER);
        assertThat(outbox(id).notifiedVersion()).isEqualTo(1);
        assertThat(claimNotifications(A, 10)).isEmpty();

        pollTo(id, TaskStatus.COMPLETED);
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(claimOneNotification(A).version()).isEqualTo(2);
    }

    @Test
    default void anExpiredDeliveryIsReclaimedWithItsFrozenEvent() {
        TaskId id = working();
        AttentionEvent first = pollTo(id, TaskStatus.INPUT_REQUIRED);
        NotificationClaim lost = claimOneNotification(A);
        assertThat(repo().markDispatched(lost)).isTrue();
        pollTo(id, TaskStatus.COMPLETED);
        advance(LEASE);

        NotificationClaim reclaimed = claimOneNotification(B);
        assertThat(reclaimed.version()).isEqualTo(1);
        assertThat(reclaimed.eventJson()).isEqualTo(first.payloadJson());
        assertThat(reclaimed.attempt()).isEqualTo(2);
        assertThat(reclaimed.token()).isNotEqualTo(lost.token());
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.CLAIMED);
    }

    @Test
    default void notificationWritesNeedTheCurrentLeaseAndTheRightStatus() {
        TaskId id = completedWithEvent();
        NotificationClaim claim = claimOneNotification(A);
        NotificationClaim forged = new NotificationClaim(id, A, ClaimToken.of("forged"), claim.expiresAt(),
                claim.version(), claim.eventJson(), claim.attempt());
        NotificationClaim otherOwner = new NotificationClaim(id, B, claim.token(), claim.expiresAt(),
                claim.version(), claim.eventJson(), claim.attempt());
        TaskRecord before = record(id);

        assertThat(repo().finishNotification(claim)).as("finish before dispatch").isFalse();
        assertThat(repo().markDispatched(forged)).isFalse();
        assertThat(repo().retryNotification(otherOwner, "x", now(), true)).isFalse();
        assertThat(repo().deadLetterNotification(forged, "x")).isFalse();
        assertThat(repo().releaseNotification(otherOwner)).isFalse();
        assertThat(record(id)).isEqualTo(before);

        advance(LEASE);
        assertThat(repo().markDispatched(claim)).as("dispatch after expiry").isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void aReleaseReturnsAClaimedDeliveryToPendingButKeepsADispatchedOne() {
        TaskId claimedOnly = completedWithEvent();
        TaskId dispatched = completedWithEvent();
        NotificationClaim first = claimOneNotificationOf(claimedOnly);
        NotificationClaim second = claimOneNotificationOf(dispatched);
        assertThat(repo().markDispatched(second)).isTrue();

        assertThat(repo().releaseNotification(first)).isTrue();
        assertThat(repo().releaseNotification(second)).isTrue();
        assertThat(outbox(claimedOnly).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(outbox(claimedOnly).leaseOwner()).isNull();
        assertThat(outbox(dispatched).status()).isEqualTo(NotificationStatus.DISPATCHED);
        assertThat(outbox(dispatched).leaseOwner()).isNull();
        assertThat(claimNotifications(B, 10)).extracting(NotificationClaim::attempt).containsExactly(1, 2);
    }

    @Test
    default void notificationClaimsTakeRowsByDueTimeThenIdAndRespectTheLimit() {
        TaskId first = completedWithEvent();
        advance(Duration.ofSeconds(1));
        TaskId second = completedWithEvent();
        TaskId third = completedWithEvent();

        assertThat(claimNotifications(A, 2)).extracting(NotificationClaim::taskId).containsExactly(first, second);
        assertThat(claimNotifications(A, 2)).extracting(NotificationClaim::taskId).containsExactly(third);
        assertThat(claimNotifications(A, 2)).isEmpty();
    }

    private NotificationClaim claimOneNotificationOf(TaskId id) {
        NotificationClaim claim = claimNotifications(A, 1).get(0);
        assertThat(claim.taskId()).isEqualTo(id);
        return claim;
    }
}
