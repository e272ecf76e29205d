package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Repository contract topic: a user's cancel request is persisted once and never sends anything itself. */
public interface CancelRequestContract extends RepositoryFixture {

    @Test
    default void theFirstCancelRequestIsSetOnceMakesTheRowDueAndClearsAPollLease() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord before = record(id);
        advance(Duration.ofSeconds(4));

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        TaskRecord after = record(id);
        assertThat(after.control().cancelRequestedAt()).isEqualTo(now());
        assertThat(after.control().nextControlAt()).isEqualTo(now());
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.state()).isEqualTo(before.state());
        assertThat(repo().releaseCancelled(poll)).isFalse();
    }

    @Test
    default void aRepeatedCancelRequestChangesNothingAndNeverClearsACancelLease() {
        TaskId id = working();
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        advance(Duration.ofSeconds(3));
        TaskRecord requested = record(id);
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_REQUESTED);
        assertThat(record(id)).isEqualTo(requested);

        Claim cancel = claimRow(ClaimPhase.CANCEL, A, id);
        TaskRecord claimed = record(id);
        advance(Duration.ofSeconds(3));
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_REQUESTED);
        assertThat(record(id)).isEqualTo(claimed);
        assertThat(record(id).lease().token()).isEqualTo(cancel.token());
    }

    @Test
    default void aPendingTaskThatWasNeverSentIsCancelledLocally() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        advance(Duration.ofSeconds(2));

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        TaskRecord after = record(id);
        StoredSnapshot cancelled = StoredSnapshot.cancelled(null);
        assertThat(after.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(after.state().completedAt()).isEqualTo(now());
        assertThat(after.state().updatedAt()).isEqualTo(now());
        assertThat(after.state().remoteTaskId()).isNull();
        assertThat(after.control().cancelRequestedAt()).isEqualTo(now());
        assertThat(after.control().nextControlAt()).isNull();
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.outbox().status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(after.outbox().eventVersion()).isEqualTo(1);
        assertThat(after.outbox().eventPayload()).isEqualTo(eventOf(id, cancelled).payloadJson());
        assertThat(after.outbox().nextAt()).isEqualTo(now());
        assertThat(repo().recordSubmitAttempt(submit)).isFalse();
        assertThat(claim(ClaimPhase.CANCEL, A, 10)).isEmpty();
        assertThat(claim(ClaimPhase.SUBMIT, A, 10)).isEmpty();
    }

    @Test
    default void aPendingTaskWhoseSubmitWasAttemptedIsNotCancelledLocally() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();
        advance(LEASE.plusSeconds(1));

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(after.control().cancelRequestedAt()).isEqualTo(now());
        assertThat(after.outbox().eventVersion()).isZero();
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        assertThat(claimedIds(ClaimPhase.CANCEL, B, 10)).containsExactly(id);
    }

    @Test
    default void aCancelRequestForATerminalOrUnknownTaskChangesNothing() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null))).isTrue();
        TaskRecord before = record(id);

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_TERMINAL);
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().requestCancel(TaskId.of("task-unknown"))).isEqualTo(CancelRequestOutcome.NOT_FOUND);
        assertThat(repo().find(TaskId.of("task-unknown"))).isEmpty();
    }

    @Test
    default void anAbandonedCancelReturnsTheRowToPollingWithTheReasonAndChangesNothingElse() {
        TaskId id = working();
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        Claim cancel = claimRow(ClaimPhase.CANCEL, A, id);
        TaskRecord before = record(id);
        advance(Duration.ofSeconds(2));

        assertThat(repo().abandonCancel(cancel, "server does not support tasks/cancel", now())).isTrue();
        TaskRecord after = record(id);
        assertThat(after.control().lastCancelError()).isEqualTo("server does not support tasks/cancel");
        assertThat(after.control().cancelRequestedAt()).isNull();
        assertThat(after.control().nextControlAt()).isEqualTo(now());
        assertThat(after.control().consecutiveErrorCount()).isEqualTo(before.control().consecutiveErrorCount());
        assertThat(after.control().cancelAttemptCount()).isEqualTo(before.control().cancelAttemptCount());
        assertThat(after.state().updatedAt()).isEqualTo(now());
        assertThat(after.state().status()).isEqualTo(before.state().status());
        assertThat(after.state().remoteTaskId()).isEqualTo(before.state().remoteTaskId());
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.outbox()).isEqualTo(before.outbox());
        assertThat(claim(ClaimPhase.CANCEL, B, 10)).isEmpty();
        assertThat(claimedIds(ClaimPhase.POLL, B, 10)).containsExactly(id);
    }

    @Test
    default void anAbandonedCancelIsFencedLikeAResult() {
        TaskId id = working();
        repo().requestCancel(id);
        Claim cancel = claimRow(ClaimPhase.CANCEL, A, id);
        advance(LEASE);
        TaskRecord expired = record(id);
        assertThat(repo().abandonCancel(cancel, "late", now())).as("expired").isFalse();
        assertThat(record(id)).isEqualTo(expired);

        Claim renewed = claimRow(ClaimPhase.CANCEL, B, id);
        TaskRecord claimed = record(id);
        assertThat(repo().abandonCancel(cancel, "stale token", now())).as("replaced").isFalse();
        assertThat(record(id)).isEqualTo(claimed);

        TaskId polled = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, polled);
        TaskRecord pollRow = record(polled);
        assertThat(repo().abandonCancel(poll, "wrong phase", now())).as("a poll claim").isFalse();
        assertThat(record(polled)).isEqualTo(pollRow);
        assertThat(repo().abandonCancel(renewed, "ok", now())).isTrue();
    }
}
