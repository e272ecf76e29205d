package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.NotificationClaim;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: a stale writer parked right before its conditional UPDATE (in the {@code FencedWriteHook}),
 * resumed after another worker claimed the row, is rejected and leaves the whole row unchanged.
 */
public interface StaleWriteContract extends RepositoryFixture {

    @Test
    default void aStaleFailureReleaseIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = working();
        Claim stale = claimRow(ClaimPhase.POLL, A, id);

        assertStaleWriteRejected(FencedWrite.RELEASE_FAILURE, id,
                () -> repo().releaseAfterFailure(stale, failure("timeout", now().plusSeconds(30))),
                claimedBy(ClaimPhase.POLL, id));
    }

    @Test
    default void aStaleCancellationReleaseIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = working();
        Claim stale = claimRow(ClaimPhase.POLL, A, id);

        assertStaleWriteRejected(FencedWrite.RELEASE_CANCELLED, id, () -> repo().releaseCancelled(stale),
                claimedBy(ClaimPhase.POLL, id));
    }

    @Test
    default void aStalePollSnapshotIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = working();
        Claim stale = claimRow(ClaimPhase.POLL, A, id);

        assertStaleWriteRejected(FencedWrite.APPLY_OUTCOME, id,
                () -> repo().applyOutcome(stale, outcome(id, TaskStatus.COMPLETED, null)),
                claimedBy(ClaimPhase.POLL, id));
    }

    @Test
    default void aStaleCancelResultIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = working();
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        Claim stale = claimRow(ClaimPhase.CANCEL, A, id);

        assertStaleWriteRejected(FencedWrite.APPLY_OUTCOME, id,
                () -> repo().applyOutcome(stale, outcome(id, TaskStatus.CANCELLED, null)),
                claimedBy(ClaimPhase.CANCEL, id));
    }

    @Test
    default void aStaleRenewalIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = working();
        Claim stale = claimRow(ClaimPhase.POLL, A, id);

        assertStaleWriteRejected(FencedWrite.RENEW, id, () -> repo().renew(stale, LEASE.multipliedBy(10)),
                claimedBy(ClaimPhase.POLL, id));
    }

    @Test
    default void aStaleSubmitResultIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = create();
        Claim stale = claimRow(ClaimPhase.SUBMIT, A, id);

        assertStaleWriteRejected(FencedWrite.APPLY_SUBMITTED, id,
                () -> repo().applySubmitted(stale, submitted("r-stale", null)), claimedBy(ClaimPhase.SUBMIT, id));
    }

    @Test
    default void aStaleSubmitAttemptIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = create();
        Claim stale = claimRow(ClaimPhase.SUBMIT, A, id);

        assertStaleWriteRejected(FencedWrite.RECORD_SUBMIT_ATTEMPT, id, () -> repo().recordSubmitAttempt(stale),
                claimedBy(ClaimPhase.SUBMIT, id));
    }

    @Test
    default void aStaleNotificationFinishIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = completedWithEvent();
        NotificationClaim stale = claimOneNotification(A);
        assertThat(repo().markDispatched(stale)).isTrue();

        assertStaleWriteRejected(FencedWrite.NOTIFY_FINISH, id, () -> repo().finishNotification(stale),
                () -> assertThat(claimOneNotification(B).version()).isEqualTo(stale.version()));
    }

    @Test
    default void aStaleNotificationRetryIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = completedWithEvent();
        NotificationClaim stale = claimOneNotification(A);
        assertThat(repo().markDispatched(stale)).isTrue();

        assertStaleWriteRejected(FencedWrite.NOTIFY_RETRY, id,
                () -> repo().retryNotification(stale, "HTTP 500", now().plusSeconds(10), true),
                () -> assertThat(claimOneNotification(B).owner()).isEqualTo(B));
    }
}
