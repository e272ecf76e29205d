package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Repository contract topic: what each fenced write requires of the claim, and what a renewal may change. */
public interface FenceContract extends RepositoryFixture {

    /** The claim with one fence field forged: another owner, another token, another phase. */
    private static List<Claim> forgeries(Claim claim) {
        ClaimPhase otherPhase = claim.phase() == ClaimPhase.POLL ? ClaimPhase.CANCEL : ClaimPhase.POLL;
        return List.of(
                new Claim(claim.taskId(), claim.phase(), B, claim.token(), claim.expiresAt()),
                new Claim(claim.taskId(), claim.phase(), claim.owner(), ClaimToken.of("forged"), claim.expiresAt()),
                new Claim(claim.taskId(), otherPhase, claim.owner(), claim.token(), claim.expiresAt()));
    }

    @Test
    default void resultWritesNeedOwnerTokenAndPhase() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord before = record(id);

        for (Claim forged : forgeries(claim)) {
            assertThat(repo().applyOutcome(forged, outcome(id, TaskStatus.COMPLETED, null))).as("%s", forged).isFalse();
            assertThat(repo().renew(forged, LEASE)).as("%s", forged).isFalse();
        }
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().applyOutcome(claim, outcome(id, TaskStatus.COMPLETED, null))).isTrue();
    }

    @Test
    default void releasesNeedOwnerTokenAndPhase() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord before = record(id);

        for (Claim forged : forgeries(claim)) {
            assertThat(repo().releaseAfterFailure(forged, failure("timeout", now()))).as("%s", forged).isFalse();
            assertThat(repo().releaseCancelled(forged)).as("%s", forged).isFalse();
        }
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().releaseCancelled(claim)).isTrue();
    }

    @Test
    default void resultWritesNeedAnUnexpiredLease() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        advance(LEASE);
        TaskRecord before = record(id);

        assertThat(repo().applyOutcome(claim, outcome(id, TaskStatus.COMPLETED, null))).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void submitWritesNeedAnUnexpiredLease() {
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        advance(LEASE.plusMillis(1));
        TaskRecord before = record(id);

        assertThat(repo().recordSubmitAttempt(claim)).isFalse();
        assertThat(repo().applySubmitted(claim, submitted("r-late", null))).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void aFailureReleaseAfterExpiryStillWorksForTheOwnerOfTheCurrentGeneration() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        advance(LEASE.plusSeconds(5));

        assertThat(repo().releaseAfterFailure(claim, failure("timeout", now().plusSeconds(2)))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.control().consecutiveErrorCount()).isEqualTo(1);
    }

    @Test
    default void aCancellationReleaseAfterExpiryStillWorksForTheOwnerOfTheCurrentGeneration() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        advance(LEASE.plusSeconds(5));

        assertThat(repo().releaseCancelled(claim)).isTrue();
        assertThat(record(id).lease()).isEqualTo(TaskRecord.Lease.NONE);
    }

    @Test
    default void aPollResultIsRejectedOnceCancelWasRequested() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        TaskRecord before = record(id);

        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null))).isFalse();
        assertThat(repo().renew(poll, LEASE)).isFalse();
        assertThat(record(id)).isEqualTo(before);
        assertThat(before.status()).isEqualTo(TaskStatus.WORKING);
    }

    @Test
    default void theRemoteTaskIsStoredEvenWhenCancelWasRequestedDuringTheSubmit() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(record(id).lease().token()).isEqualTo(submit.token());

        advance(Duration.ofSeconds(1));
        SubmitWrite slowFirstPoll = new SubmitWrite("r-1", snapshot(TaskStatus.WORKING), null, PROTOCOL, null,
                now().plus(Duration.ofMinutes(10)), null);
        assertThat(repo().applySubmitted(submit, slowFirstPoll)).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state().remoteTaskId()).isEqualTo("r-1");
        assertThat(after.control().nextControlAt()).as("the cancel is due at once").isEqualTo(now());
        assertThat(after.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(after.control().cancelRequestedAt()).isNotNull();
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(claimedIds(ClaimPhase.CANCEL, B, 10)).containsExactly(id);
    }

    @Test
    default void aLocalCancellationWinsOverASubmitClaimThatHasNotSentAnything() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        TaskRecord before = record(id);

        assertThat(repo().recordSubmitAttempt(submit)).isFalse();
        assertThat(repo().applySubmitted(submit, submitted("r-1", null))).isFalse();
        assertThat(repo().releaseCancelled(submit)).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void renewalExtendsToNowPlusLeaseAndChangesNothingElse() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord before = record(id);
        advance(Duration.ofSeconds(20));

        assertThat(repo().renew(claim, LEASE)).isTrue();
        TaskRecord after = record(id);
        assertThat(after.lease().expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(withLease(after, before.lease())).isEqualTo(before);
    }

    @Test
    default void renewalNeverShortensTheLeaseWhenTheClockStepsBackOrTheLeaseIsShorter() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord before = record(id);

        clock().stepWallClock(Duration.ofSeconds(-30));
        assertThat(repo().renew(claim, LEASE)).isTrue();
        assertThat(record(id)).isEqualTo(before);
        clock().stepWallClock(Duration.ofSeconds(40));
        assertThat(repo().renew(claim, Duration.ofSeconds(5))).isTrue();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void renewalIsRejectedAtAndAfterExpiry() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        advance(LEASE);
        TaskRecord before = record(id);

        assertThat(repo().renew(claim, LEASE)).isFalse();
        advance(Duration.ofSeconds(1));
        assertThat(repo().renew(claim, LEASE)).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void renewalIsRejectedOnceTheRowIsTerminal() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(claim, outcome(id, TaskStatus.FAILED, null))).isTrue();
        TaskRecord before = record(id);

        assertThat(repo().renew(claim, LEASE)).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void renewalIsRejectedForAnotherPhaseOfTheSameClaim() {
        TaskId id = working();
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        Claim cancel = claimRow(ClaimPhase.CANCEL, A, id);
        TaskRecord before = record(id);

        Claim asPoll = new Claim(id, ClaimPhase.POLL, A, cancel.token(), cancel.expiresAt());
        assertThat(repo().renew(asPoll, LEASE)).isFalse();
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().renew(cancel, LEASE)).isTrue();
    }

    @Test
    default void aCancelRenewalSurvivesARepeatedCancelRequest() {
        TaskId id = working();
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        Claim cancel = claimRow(ClaimPhase.CANCEL, A, id);

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_REQUESTED);
        assertThat(repo().renew(cancel, LEASE)).isTrue();
        assertThat(repo().applyOutcome(cancel, outcome(id, TaskStatus.CANCELLED, null))).isTrue();
        assertThat(record(id).status()).isEqualTo(TaskStatus.CANCELLED);
    }
}
