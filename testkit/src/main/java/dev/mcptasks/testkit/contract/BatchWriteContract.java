package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: the batched fenced writes ({@code renewAll}, {@code recordSubmitAttempts},
 * {@code applySubmittedAll}, {@code applyOutcomes}, {@code markAllDispatched}, {@code finishNotifications}). Each
 * equals its single write applied to every element in order: every test applies the batch to some rows and the
 * single write to twin rows in the same state, and compares the rows field by field (everything that does not name
 * the row itself). A refused element changes nothing and does not spoil the others.
 */
public interface BatchWriteContract extends RepositoryFixture {
    Duration LONGER = LEASE.multipliedBy(2);

    @Test
    default void emptyBatchesChangeNothingAndAnswerEmptyLists() {
        assertThat(repo().renewAll(List.of(), LEASE)).isEmpty();
        assertThat(repo().recordSubmitAttempts(List.of())).isEmpty();
        assertThat(repo().applySubmittedAll(List.of())).isEmpty();
        assertThat(repo().applyOutcomes(List.of())).isEmpty();
        assertThat(repo().markAllDispatched(List.of())).isEmpty();
        assertThat(repo().finishNotifications(List.of())).isEmpty();
    }

    @Test
    default void renewAllExtendsEachLiveClaimAndRefusesEachStaleOneLikeSingleRenewals() {
        TaskId live = working();
        TaskId released = working();
        TaskId cancelRequested = working();
        TaskId submitting = create();
        List<Claim> claims = List.of(claimRow(ClaimPhase.POLL, A, live), claimRow(ClaimPhase.POLL, A, released),
                claimRow(ClaimPhase.POLL, A, cancelRequested), claimRow(ClaimPhase.SUBMIT, A, submitting));
        TaskId[] twins = {working(), working(), working(), create()};
        List<Claim> twinClaims = List.of(claimRow(ClaimPhase.POLL, A, twins[0]), claimRow(ClaimPhase.POLL, A, twins[1]),
                claimRow(ClaimPhase.POLL, A, twins[2]), claimRow(ClaimPhase.SUBMIT, A, twins[3]));
        for (List<Claim> set : List.of(claims, twinClaims)) {
            assertThat(repo().releaseCancelled(set.get(1))).isTrue();
            repo().requestCancel(set.get(2).taskId());
        }
        advance(Duration.ofSeconds(10));

        List<Boolean> batch = repo().renewAll(claims, LONGER);
        List<Boolean> singles = twinClaims.stream().map(claim -> repo().renew(claim, LONGER)).toList();

        assertThat(batch).containsExactly(true, false, false, true).isEqualTo(singles);
        assertThat(record(live).lease().expiresAt()).isEqualTo(now().plus(LONGER));
        assertSameRows(claims, twinClaims);
    }

    @Test
    default void renewAllNeverShortensALease() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        Claim twin = claimRow(ClaimPhase.POLL, A, working());

        assertThat(repo().renewAll(List.of(claim), Duration.ofSeconds(1))).containsExactly(true);
        assertThat(repo().renew(twin, Duration.ofSeconds(1))).isTrue();

        assertThat(record(id).lease().expiresAt()).isEqualTo(now().plus(LEASE));
        assertSameRows(List.of(claim), List.of(twin));
    }

    @Test
    default void renewAllRefusesAnExpiredClaimEvenWhenNoOneTookTheRow() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        Claim fresh = claimRow(ClaimPhase.POLL, B, working());
        advance(LEASE);

        assertThat(repo().renewAll(List.of(claim, fresh), LEASE)).containsExactly(false, false);
        assertThat(record(id).lease().expiresAt()).isEqualTo(now());
    }

    @Test
    default void recordSubmitAttemptsRecordsEachFencedAttemptLikeSingleRecords() {
        List<Claim> claims = new ArrayList<>();
        List<Claim> twins = new ArrayList<>();
        for (List<Claim> set : List.of(claims, twins)) {
            set.add(claimRow(ClaimPhase.SUBMIT, A, create()));
            Claim cancelled = claimRow(ClaimPhase.SUBMIT, A, create());
            repo().requestCancel(cancelled.taskId());
            set.add(cancelled);
            Claim lost = claimRow(ClaimPhase.SUBMIT, A, create());
            assertThat(repo().releaseCancelled(lost)).isTrue();
            set.add(lost);
        }
        advance(Duration.ofSeconds(3));

        List<Boolean> batch = repo().recordSubmitAttempts(claims);
        List<Boolean> singles = twins.stream().map(repo()::recordSubmitAttempt).toList();

        assertThat(batch).isEqualTo(singles).first().isEqualTo(true);
        assertThat(record(claims.get(0).taskId()).control().submitAttemptedAt()).isEqualTo(now());
        assertSameRows(claims, twins);
    }

    @Test
    default void applySubmittedAllStoresEachCreatedTaskOrTerminalAnswerLikeSingleWrites() {
        List<Claim> claims = new ArrayList<>();
        List<Claim> twins = new ArrayList<>();
        for (List<Claim> set : List.of(claims, twins)) {
            for (int i = 0; i < 3; i++) {
                Claim claim = claimRow(ClaimPhase.SUBMIT, A, create());
                assertThat(repo().recordSubmitAttempt(claim)).isTrue();
                set.add(claim);
            }
            repo().requestCancel(set.get(1).taskId());
            assertThat(repo().releaseCancelled(set.get(2))).isTrue();
        }
        advance(Duration.ofSeconds(2));

        List<Boolean> batch = repo().applySubmittedAll(submitWrites(claims));
        List<Boolean> singles = submitWrites(twins).stream()
                .map(write -> repo().applySubmitted(write.claim(), write.write())).toList();

        assertThat(batch).containsExactly(true, true, false).isEqualTo(singles);
        assertThat(record(claims.get(0).taskId()).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(record(claims.get(1).taskId()).state().remoteTaskId()).isEqualTo("r-" + claims.get(1).taskId());
        assertSameRows(claims, twins);
    }

    @Test
    default void applySubmittedAllStoresEachElementsOwnEndpointSession() {
        List<String> sessions = Arrays.asList("session-of-first", null, "session-of-third");
        List<ClaimedWrite<SubmitWrite>> writes = new ArrayList<>();
        for (String session : sessions) {
            TaskId id = create();
            writes.add(new ClaimedWrite<>(claimRow(ClaimPhase.SUBMIT, A, id), submitted("r-" + id, null, session)));
        }

        assertThat(repo().applySubmittedAll(writes)).containsExactly(true, true, true);
        for (int i = 0; i < writes.size(); i++) {
            assertThat(record(writes.get(i).claim().taskId()).state().endpointSession()).isEqualTo(sessions.get(i));
        }
        assertThat(claim(ClaimPhase.POLL, B, 10))
                .extracting(claimed -> claimed.claim().taskId(), claimed -> claimed.task().state().endpointSession())
                .containsExactlyInAnyOrder(tuple(writes.get(0).claim().taskId(), sessions.get(0)),
                        tuple(writes.get(1).claim().taskId(), null),
                        tuple(writes.get(2).claim().taskId(), sessions.get(2)));
    }

    @Test
    default void applySubmittedAllThrowsWhenOneElementWouldDuplicateARemoteTask() {
        TaskId existing = working();
        Claim first = claimRow(ClaimPhase.SUBMIT, A, create());
        Claim second = claimRow(ClaimPhase.SUBMIT, A, create());
        List<ClaimedWrite<SubmitWrite>> writes = List.of(
                new ClaimedWrite<>(first, submitted("r-fresh", null)),
                new ClaimedWrite<>(second, submitted("r-" + existing, null)));

        assertThatThrownBy(() -> repo().inOneTransaction(() -> repo().applySubmittedAll(writes)))
                .isInstanceOf(dev.mcptasks.ports.repository.DuplicateTaskException.class);
        assertThat(record(first.taskId()).state().remoteTaskId()).isNull();
        assertThat(record(second.taskId()).state().remoteTaskId()).isNull();
    }

    @Test
    default void applyOutcomesStoresEachSnapshotLikeSingleWrites() {
        List<Claim> claims = new ArrayList<>();
        List<Claim> twins = new ArrayList<>();
        for (List<Claim> set : List.of(claims, twins)) {
            for (int i = 0; i < 4; i++) {
                set.add(claimRow(ClaimPhase.POLL, A, working()));
            }
            repo().requestCancel(set.get(2).taskId());
            assertThat(repo().releaseCancelled(set.get(3))).isTrue();
        }
        advance(Duration.ofSeconds(2));

        List<Boolean> batch = repo().applyOutcomes(outcomeWrites(claims));
        List<Boolean> singles = outcomeWrites(twins).stream()
                .map(write -> repo().applyOutcome(write.claim(), write.write())).toList();

        assertThat(batch).containsExactly(true, true, false, false).isEqualTo(singles);
        TaskRecord completed = record(claims.get(0).taskId());
        assertThat(completed.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(completed.outbox().status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(record(claims.get(1).taskId()).control().nextControlAt()).isEqualTo(now().plusSeconds(5));
        assertSameRows(claims, twins);
    }

    @Test
    default void aBatchInsideARolledBackTransactionKeepsNothing() {
        Claim poll = claimRow(ClaimPhase.POLL, A, working());
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, create());
        TaskRecord pollBefore = record(poll.taskId());
        TaskRecord submitBefore = record(submit.taskId());

        assertThatThrownBy(() -> repo().inOneTransaction(() -> {
            assertThat(repo().applyOutcomes(outcomeWrites(List.of(poll)))).containsExactly(true);
            assertThat(repo().recordSubmitAttempts(List.of(submit))).containsExactly(true);
            assertThat(repo().renewAll(List.of(poll, submit), LONGER)).containsExactly(false, true);
            throw new IllegalStateException("roll back");
        })).hasMessage("roll back");

        assertThat(record(poll.taskId())).isEqualTo(pollBefore);
        assertThat(record(submit.taskId())).isEqualTo(submitBefore);
    }

    @Test
    default void markAllDispatchedAndFinishNotificationsSettleEachDeliveryLikeSingleWrites() {
        List<TaskId> rows = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            rows.add(completedWithEvent());
        }
        List<NotificationClaim> deliveries = claimNotifications(A, 10);
        assertThat(deliveries).hasSize(6);
        List<NotificationClaim> batched = deliveries.subList(0, 3);
        List<NotificationClaim> twins = deliveries.subList(3, 6);
        // the last of each set is refused: its delivery lease ran out and another worker took it
        advance(LEASE);
        List<NotificationClaim> retaken = claimNotifications(B, 10);
        assertThat(retaken).hasSize(6);
        for (NotificationClaim other : retaken) {
            if (!other.taskId().equals(batched.get(2).taskId()) && !other.taskId().equals(twins.get(2).taskId())) {
                assertThat(repo().releaseNotification(other)).isTrue();
            }
        }
        List<NotificationClaim> mine = claimNotifications(A, 10);
        List<NotificationClaim> batchedNow = List.of(byTask(mine, batched.get(0)), byTask(mine, batched.get(1)),
                batched.get(2));
        List<NotificationClaim> twinsNow = List.of(byTask(mine, twins.get(0)), byTask(mine, twins.get(1)),
                twins.get(2));

        List<Boolean> dispatched = repo().markAllDispatched(batchedNow);
        List<Boolean> dispatchedAlone = twinsNow.stream().map(repo()::markDispatched).toList();
        assertThat(dispatched).containsExactly(true, true, false).isEqualTo(dispatchedAlone);
        assertThat(record(batchedNow.get(0).taskId()).outbox().status()).isEqualTo(NotificationStatus.DISPATCHED);
        assertSameDeliveries(batchedNow, twinsNow);

        List<Boolean> finished = repo().finishNotifications(batchedNow);
        List<Boolean> finishedAlone = twinsNow.stream().map(repo()::finishNotification).toList();
        assertThat(finished).containsExactly(true, true, false).isEqualTo(finishedAlone);
        assertThat(record(batchedNow.get(0).taskId()).outbox().status()).isEqualTo(NotificationStatus.DELIVERED);
        assertSameDeliveries(batchedNow, twinsNow);
    }

    private static NotificationClaim byTask(List<NotificationClaim> claims, NotificationClaim of) {
        return claims.stream().filter(claim -> claim.taskId().equals(of.taskId())).findFirst()
                .orElseThrow(() -> new AssertionError("no delivery of " + of.taskId() + " in " + claims));
    }

    /** Terminal (no task created) for the first element, a created task for the others. */
    private List<ClaimedWrite<SubmitWrite>> submitWrites(List<Claim> claims) {
        List<ClaimedWrite<SubmitWrite>> writes = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            SubmitWrite write = i == 0
                    ? new SubmitWrite(null, snapshot(TaskStatus.COMPLETED), null, PROTOCOL, null, null, null)
                    : submitted("r-" + claim.taskId(), null);
            writes.add(new ClaimedWrite<>(claim, write));
        }
        return writes;
    }

    /** Completed for the first element, still working (due in 5 s) for the others. */
    private List<ClaimedWrite<OutcomeWrite>> outcomeWrites(List<Claim> claims) {
        List<ClaimedWrite<OutcomeWrite>> writes = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            TaskId id = claims.get(i).taskId();
            writes.add(new ClaimedWrite<>(claims.get(i),
                    outcome(id, i == 0 ? TaskStatus.COMPLETED : TaskStatus.WORKING, now().plusSeconds(5))));
        }
        return writes;
    }

    private void assertSameRows(List<Claim> batched, List<Claim> singles) {
        for (int i = 0; i < batched.size(); i++) {
            assertSameRow(batched.get(i).taskId(), singles.get(i).taskId());
        }
    }

    private void assertSameDeliveries(List<NotificationClaim> batched, List<NotificationClaim> singles) {
        for (int i = 0; i < batched.size(); i++) {
            assertSameRow(batched.get(i).taskId(), singles.get(i).taskId());
        }
    }

    /** Every field but those that name the row itself (id, remote id, tokens, event text). */
    private void assertSameRow(TaskId batched, TaskId single) {
        assertThat(record(batched)).as("row %s written by the batch, against %s written alone", batched, single)
                .usingRecursiveComparison()
                .ignoringFields("id", "state.remoteTaskId", "lease.token", "outbox.eventFingerprint",
                        "outbox.eventPayload", "outbox.dispatchEvent", "outbox.leaseToken")
                .isEqualTo(record(single));
    }
}
