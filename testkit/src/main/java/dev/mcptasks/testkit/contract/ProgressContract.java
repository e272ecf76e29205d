package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: {@code recordProgress}, a call's progress stored as the task's status message under the
 * claim that runs it. It changes the message and {@code updated_at} and nothing else (the lease stays, no event, no
 * counter), under the fence of a live claim of any phase; a refused write leaves the row whole.
 */
public interface ProgressContract extends RepositoryFixture {
    Duration STEP = Duration.ofSeconds(3);

    /** {@code before} with only the two columns a progress write may change set to what it should store. */
    private static TaskRecord withProgress(TaskRecord before, String statusMessage, Instant updatedAt) {
        TaskRecord.State s = before.state();
        TaskRecord.State state = new TaskRecord.State(s.status(), statusMessage, s.resultJson(), s.resultTruncated(),
                s.error(), s.errorCode(), s.inputRequiredJson(), s.remoteTaskId(), s.remoteTtlMs(),
                s.protocolVersion(), s.endpointOwner(), s.createdBy(), updatedAt, s.completedAt(),
                s.inputResponsesJson(), s.requestState(), s.endpointSession());
        return new TaskRecord(before.id(), before.definition(), state, before.control(), before.lease(),
                before.outbox());
    }

    /** A pending row under A's submit claim whose create request is recorded as sent (a direct call in flight). */
    private Claim directCallInFlight(TaskId id) {
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();
        return submit;
    }

    @Test
    default void progressUnderASubmitClaimChangesOnlyTheMessageAndUpdatedAt() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        TaskRecord before = record(id);
        advance(STEP);

        assertThat(repo().recordProgress(submit, "step 1 of 4")).isTrue();

        TaskRecord after = record(id);
        assertThat(after).isEqualTo(withProgress(before, "step 1 of 4", now()));
        assertThat(after.lease().token()).as("the claim goes on").isEqualTo(submit.token());
    }

    @Test
    default void laterProgressReplacesTheMessageAndProgressAfterTheResultIsRefused() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        assertThat(repo().recordProgress(submit, "step 1 of 4")).isTrue();
        advance(STEP);
        TaskRecord before = record(id);

        assertThat(repo().recordProgress(submit, "step 2 of 4")).isTrue();
        assertThat(record(id)).isEqualTo(withProgress(before, "step 2 of 4", now()));
        assertThat(repo().renew(submit, LEASE)).isTrue();
        StoredSnapshot result = snapshot(TaskStatus.COMPLETED);
        assertThat(repo().applySubmitted(submit, new SubmitWrite(null, result, null, PROTOCOL, null, null,
                eventOf(id, result)))).isTrue();
        TaskRecord finished = record(id);
        assertThat(finished.state().statusMessage()).as("the result's own message").isEqualTo(result.statusMessage());

        // progress throttled behind the result arrives late: the result ended the claim, so it never overwrites it
        assertThat(repo().recordProgress(submit, "step 4 of 4")).isFalse();
        assertThat(record(id)).isEqualTo(finished);
    }

    @Test
    default void progressUnderAPollClaimOfAnInputRoundRecordsNoEvent() {
        // input_required deserves a notification and its message is part of the event: progress must still add none
        TaskId id = working();
        Claim first = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(first, outcome(id, TaskStatus.INPUT_REQUIRED, now()))).isTrue();
        Claim poll = claimRow(ClaimPhase.POLL, B, id);
        TaskRecord before = record(id);
        assertThat(before.outbox().eventVersion()).isEqualTo(1);
        advance(STEP);

        assertThat(repo().recordProgress(poll, "still waiting")).isTrue();
        assertThat(record(id)).isEqualTo(withProgress(before, "still waiting", now()));
    }

    @Test
    default void aCancelRequestDoesNotRefuseProgress() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        TaskRecord before = record(id);
        advance(STEP);

        assertThat(repo().recordProgress(submit, "step 3 of 4")).isTrue();
        assertThat(record(id)).isEqualTo(withProgress(before, "step 3 of 4", now()));
    }

    @Test
    default void progressIsRefusedForAnotherOwnerTokenOrPhase() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        TaskRecord before = record(id);
        List<Claim> forged = List.of(
                new Claim(id, submit.phase(), B, submit.token(), submit.expiresAt()),
                new Claim(id, submit.phase(), submit.owner(), ClaimToken.of("forged"), submit.expiresAt()),
                new Claim(id, ClaimPhase.POLL, submit.owner(), submit.token(), submit.expiresAt()),
                new Claim(id, ClaimPhase.CANCEL, submit.owner(), submit.token(), submit.expiresAt()));

        for (Claim claim : forged) {
            assertThat(repo().recordProgress(claim, "forged")).as("%s", claim).isFalse();
        }
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void progressIsRefusedOnceTheLeaseExpired() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        advance(LEASE);
        TaskRecord before = record(id);

        assertThat(repo().recordProgress(submit, "too late")).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void progressOfAClaimWhoseRowWasTakenOverIsRefused() {
        TaskId id = create();
        Claim stale = directCallInFlight(id);
        advance(LEASE.plusSeconds(1));
        Claim current = claimRow(ClaimPhase.SUBMIT, B, id);
        TaskRecord before = record(id);

        assertThat(repo().recordProgress(stale, "stale")).isFalse();
        assertThat(record(id)).isEqualTo(before);
        assertThat(repo().recordProgress(current, "current")).isTrue();
    }

    @Test
    default void progressIsRefusedOnATerminalRow() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null))).isTrue();
        TaskRecord before = record(id);

        assertThat(repo().recordProgress(poll, "after the end")).isFalse();
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void aStaleProgressWriteParkedBeforeItsUpdateIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = create();
        Claim stale = directCallInFlight(id);

        assertStaleWriteRejected(FencedWrite.RECORD_PROGRESS, id, () -> repo().recordProgress(stale, "stale"),
                claimedBy(ClaimPhase.SUBMIT, id));
    }

    @Test
    default void aLongMessageIsCappedLikeEveryStoredStatusMessage() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        String longMessage = "progress ".repeat(SnapshotNormalizer.MAX_ERROR_CHARS / 4);

        assertThat(repo().recordProgress(submit, longMessage)).isTrue();

        String stored = record(id).state().statusMessage();
        assertThat(stored).isEqualTo(SnapshotNormalizer.cap(longMessage, SnapshotNormalizer.MAX_ERROR_CHARS));
        assertThat(stored).hasSize(SnapshotNormalizer.MAX_ERROR_CHARS).endsWith("[truncated]");
    }

    @Test
    default void aMessageAtTheBoundIsStoredWhole() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        String message = "x".repeat(SnapshotNormalizer.MAX_ERROR_CHARS);

        assertThat(repo().recordProgress(submit, message)).isTrue();
        assertThat(record(id).state().statusMessage()).isEqualTo(message);
    }

    @Test
    default void aNullMessageIsRefusedBeforeAnythingIsWritten() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        TaskRecord before = record(id);

        assertThatThrownBy(() -> repo().recordProgress(submit, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("statusMessage");
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void progressInsideATransactionThatThrowsIsNotKept() {
        TaskId id = create();
        Claim submit = directCallInFlight(id);
        TaskRecord before = record(id);
        advance(STEP);

        assertThatThrownBy(() -> repo().inOneTransaction(() -> {
            assertThat(repo().recordProgress(submit, "rolled back")).isTrue();
            throw new IllegalStateException("the group failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("the group failed");
        assertThat(record(id)).isEqualTo(before);

        assertThat(repo().inOneTransaction(() -> repo().recordProgress(submit, "kept"))).isTrue();
        assertThat(record(id)).isEqualTo(withProgress(before, "kept", now()));
    }
}
