package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Repository contract topic: which rows a control claim scan takes, in which order, and the lease it grants. */
public interface ClaimContract extends RepositoryFixture {

    @Test
    default void submitClaimTakesADuePendingRowAndGrantsAFreshLease() {
        TaskId id = create();

        List<ClaimedTask> claimed = claim(ClaimPhase.SUBMIT, A, 10);

        assertThat(claimed).hasSize(1);
        Claim claim = claimed.get(0).claim();
        assertThat(claim.taskId()).isEqualTo(id);
        assertThat(claim.phase()).isEqualTo(ClaimPhase.SUBMIT);
        assertThat(claim.owner()).isEqualTo(A);
        assertThat(claim.expiresAt()).isEqualTo(now().plus(LEASE));
        TaskRecord stored = record(id);
        assertThat(stored.lease())
                .isEqualTo(new TaskRecord.Lease(ClaimPhase.SUBMIT, A, claim.token(), now().plus(LEASE)));
        assertThat(stored.control().submitAttemptCount()).isEqualTo(1);
        assertThat(stored.control().pollAttemptCount()).isZero();
        assertThat(claimed.get(0).task()).isEqualTo(stored);
    }

    @Test
    default void submitClaimSkipsRowsThatAreNotDueOrHaveACancelRequest() {
        TaskId later = create();
        Claim first = claimRow(ClaimPhase.SUBMIT, A, later);
        assertThat(repo().releaseAfterFailure(first, failure("connection refused", now().plusSeconds(10)))).isTrue();
        TaskId attempted = create();
        Claim second = claimRow(ClaimPhase.SUBMIT, A, attempted);
        assertThat(repo().recordSubmitAttempt(second)).isTrue();
        assertThat(repo().releaseCancelled(second)).isTrue();
        assertThat(repo().requestCancel(attempted)).isEqualTo(CancelRequestOutcome.REQUESTED);

        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        assertThat(claimedIds(ClaimPhase.CANCEL, B, 10)).containsExactly(attempted);
        advance(Duration.ofSeconds(10));
        assertThat(claimedIds(ClaimPhase.SUBMIT, B, 10)).containsExactly(later);
    }

    @Test
    default void pollClaimTakesOnlyWorkingAndInputRequiredRowsWithoutCancelRequest() {
        TaskId pending = create();
        TaskId working = working();
        TaskId input = working();
        Claim inputPoll = claimRow(ClaimPhase.POLL, A, input);
        assertThat(repo().applyOutcome(inputPoll, outcome(input, TaskStatus.INPUT_REQUIRED, now()))).isTrue();
        TaskId done = working();
        Claim donePoll = claimRow(ClaimPhase.POLL, A, done);
        assertThat(repo().applyOutcome(donePoll, outcome(done, TaskStatus.COMPLETED, null))).isTrue();
        TaskId cancelRequested = working();
        assertThat(repo().requestCancel(cancelRequested)).isEqualTo(CancelRequestOutcome.REQUESTED);

        assertThat(claimedIds(ClaimPhase.POLL, B, 10)).containsExactlyInAnyOrder(working, input);
        assertThat(record(pending).lease().isHeld()).isFalse();
        assertThat(record(input).control().pollAttemptCount()).isEqualTo(2);
    }

    @Test
    default void cancelClaimTakesOnlyNonterminalRowsWithACancelRequest() {
        TaskId working = working();
        TaskId requested = working();
        TaskId finished = working();
        assertThat(repo().requestCancel(requested)).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(repo().requestCancel(finished)).isEqualTo(CancelRequestOutcome.REQUESTED);
        Claim cancel = claimRow(ClaimPhase.CANCEL, A, finished);
        assertThat(repo().applyOutcome(cancel, outcome(finished, TaskStatus.CANCELLED, null))).isTrue();

        List<ClaimedTask> claimed = claim(ClaimPhase.CANCEL, B, 10);

        assertThat(claimed).extracting(c -> c.claim().taskId()).containsExactly(requested);
        assertThat(claimed.get(0).task().control().cancelAttemptCount()).isEqualTo(1);
        assertThat(record(working).lease().isHeld()).isFalse();
    }

    @Test
    default void claimsSkipLiveLeasesAndReclaimExpiredOnesAtTheExpiryInstant() {
        TaskId id = create();
        Claim first = claimRow(ClaimPhase.SUBMIT, A, id);

        advance(LEASE.minusMillis(1));
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        advance(Duration.ofMillis(1));
        List<ClaimedTask> second = claim(ClaimPhase.SUBMIT, B, 10);

        assertThat(second).hasSize(1);
        assertThat(second.get(0).claim().owner()).isEqualTo(B);
        assertThat(second.get(0).claim().token()).isNotEqualTo(first.token());
        assertThat(record(id).control().submitAttemptCount()).isEqualTo(2);
        assertThat(second.get(0).recovered()).as("a claim taken over from an expired lease is a recovery").isTrue();
    }

    @Test
    default void aRecoveryNamesThePhaseOfTheExpiredLeaseItTookOver() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();
        advance(LEASE);
        repo().requestCancel(id);

        List<ClaimedTask> cancel = claim(ClaimPhase.CANCEL, B, 10);

        assertThat(cancel).hasSize(1);
        assertThat(cancel.get(0).recovered()).isTrue();
        assertThat(cancel.get(0).expiredPhase()).as("the dead worker's submit lease").isEqualTo(ClaimPhase.SUBMIT);
        assertThat(cancel.get(0).claim().phase()).isEqualTo(ClaimPhase.CANCEL);
    }

    @Test
    default void aClaimOfAReleasedRowIsNotARecovery() {
        TaskId fresh = create();
        TaskId released = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, released);
        assertThat(repo().releaseCancelled(claim)).isTrue();

        List<ClaimedTask> claimed = claim(ClaimPhase.SUBMIT, B, 10);

        assertThat(claimed).extracting(c -> c.claim().taskId()).containsExactlyInAnyOrder(fresh, released);
        assertThat(claimed).allSatisfy(c -> assertThat(c.recovered()).isFalse());
        assertThat(claimed).allSatisfy(c -> assertThat(c.expiredPhase()).isNull());
    }

    @Test
    default void theSameWorkerReclaimingGetsANewTokenAndItsOldTokenIsRejectedEverywhere() {
        TaskId id = working();
        Claim old = claimRow(ClaimPhase.POLL, A, id);
        advance(LEASE.plusSeconds(1));
        Claim current = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord before = record(id);

        assertThat(current.token()).isNotEqualTo(old.token());
        assertThat(repo().renew(old, LEASE)).isFalse();
        assertThat(repo().applyOutcome(old, outcome(id, TaskStatus.COMPLETED, null))).isFalse();
        assertThat(repo().releaseAfterFailure(old, failure("timeout", now().plusSeconds(5)))).isFalse();
        assertThat(repo().releaseCancelled(old)).isFalse();
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().renew(current, LEASE)).isTrue();
    }

    @Test
    default void anOldSubmitTokenCannotRecordAnAttemptNorStoreTheRemoteTask() {
        TaskId id = create();
        Claim old = claimRow(ClaimPhase.SUBMIT, A, id);
        advance(LEASE);
        Claim current = claimRow(ClaimPhase.SUBMIT, A, id);
        TaskRecord before = record(id);

        assertThat(repo().recordSubmitAttempt(old)).isFalse();
        assertThat(repo().applySubmitted(old, submitted("r-old", null))).isFalse();
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().recordSubmitAttempt(current)).isTrue();
    }

    @Test
    default void pollAndCancelClaimsSkipRowsWhoseEndpointBelongsToAnotherLiveWorker() {
        heartbeat(A);
        TaskId polled = working(SERVER, A);
        TaskId cancelled = working(SERVER, A);
        assertThat(repo().requestCancel(cancelled)).isEqualTo(CancelRequestOutcome.REQUESTED);

        assertThat(claim(ClaimPhase.POLL, B, 10)).isEmpty();
        assertThat(claim(ClaimPhase.CANCEL, B, 10)).isEmpty();
        assertThat(claimedIds(ClaimPhase.POLL, A, 10)).containsExactly(polled);
        assertThat(claimedIds(ClaimPhase.CANCEL, A, 10)).containsExactly(cancelled);
    }

    @Test
    default void rowsOfAStaleOrRemovedEndpointOwnerAreClaimableByAnyWorker() {
        heartbeat(A);
        heartbeat(B);
        TaskId ofA = working(SERVER, A);
        TaskId ofB = working(SERVER, B);
        ageHeartbeats(LIVENESS.minusSeconds(10));
        assertThat(claim(ClaimPhase.POLL, C, 10)).as("A and B were seen within the liveness bound").isEmpty();

        ageHeartbeats(Duration.ofSeconds(11));
        heartbeat(B);
        assertThat(claimedIds(ClaimPhase.POLL, C, 10)).containsExactly(ofA);
        repo().removeWorker(B);
        assertThat(claimedIds(ClaimPhase.POLL, C, 10)).containsExactly(ofB);
    }

    @Test
    default void excludedRowsAreNeverClaimed() {
        TaskId first = create();
        TaskId second = create();
        TaskId third = create();

        List<ClaimedTask> claimed = repo().claimControl(request(ClaimPhase.SUBMIT, A, 10, Set.of(first, third)));

        assertThat(claimed).extracting(c -> c.claim().taskId()).containsExactly(second);
        assertThat(record(first).control().submitAttemptCount()).isZero();
    }

    @Test
    default void claimsTakeRowsByDueTimeThenIdAndRespectTheLimit() {
        TaskId first = create();
        TaskId second = create();
        TaskId third = create();
        TaskId fourth = create();
        List<ClaimedTask> all = claim(ClaimPhase.SUBMIT, A, 10);
        assertThat(all).extracting(c -> c.claim().taskId()).containsExactly(first, second, third, fourth);
        Duration[] delays = {
            Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1)};
        for (int i = 0; i < all.size(); i++) {
            assertThat(repo().releaseAfterFailure(all.get(i).claim(), failure("refused", now().plus(delays[i]))))
                    .isTrue();
        }
        advance(Duration.ofSeconds(5));

        assertThat(claimedIds(ClaimPhase.SUBMIT, B, 3)).containsExactly(second, fourth, third);
        assertThat(claimedIds(ClaimPhase.SUBMIT, B, 3)).containsExactly(first);
        assertThat(claim(ClaimPhase.SUBMIT, B, 0)).isEmpty();
    }

    @Test
    default void aZeroLimitClaimsNothingAndBumpsNoCounter() {
        TaskId id = create();

        assertThat(claim(ClaimPhase.SUBMIT, A, 0)).isEmpty();
        assertThat(record(id).control().submitAttemptCount()).isZero();
        assertThat(record(id).lease()).isEqualTo(TaskRecord.Lease.NONE);
    }
}
