package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Repository contract topic: what creation, submission, results and releases store. */
public interface TransitionContract extends RepositoryFixture {
    /**
     * An upstream session id ({@code Mcp-Session-Id}) of every visible ASCII character, the characters the MCP
     * transport allows in it, and as long as any the stores must keep: read back, it is the very value written.
     */
    String SESSION = IntStream.range(0, 512).map(i -> '!' + i % ('~' - '!' + 1))
            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();

    @Test
    default void createStoresAPendingRowDueNowWithItsDefinitionVerbatim() {
        TaskId id = ids().newTaskId();
        TaskRecord created = repo().create(new NewTask(id, SERVER, TOOL, ARGUMENTS, DRIVER, 90_000L));

        TaskRecord expected = new TaskRecord(id,
                new TaskRecord.Definition(SERVER, TOOL, ARGUMENTS, DRIVER, 90_000L, now()),
                new TaskRecord.State(TaskStatus.PENDING, null, null, false, null, null, null, null, null, null, null,
                        null, now(), null, null, null, null),
                new TaskRecord.Control(now(), null, 0, 0, 0, 0, null, null, null, null),
                TaskRecord.Lease.NONE,
                new TaskRecord.Outbox(NotificationStatus.NONE, null, null, 0, 0, 0, 0, null, 0, null, null, null, null,
                        null));
        assertThat(created).isEqualTo(expected);
        assertThat(record(id)).isEqualTo(expected);
    }

    @Test
    default void createRejectsAUsedTaskIdAndKeepsTheFirstRow() {
        TaskId id = create();
        TaskRecord before = record(id);

        assertThatThrownBy(() -> repo().create(new NewTask(id, OTHER_SERVER, "other", "{}", DRIVER, null)))
                .isInstanceOf(DuplicateTaskException.class)
                .hasMessageContaining(id.value());
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void recordSubmitAttemptStampsTheAttemptAndKeepsTheClaim() {
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        TaskRecord before = record(id);
        advance(Duration.ofSeconds(2));

        assertThat(repo().recordSubmitAttempt(claim)).isTrue();
        TaskRecord after = record(id);
        assertThat(after.control().submitAttemptedAt()).isEqualTo(now());
        assertThat(after.lease()).isEqualTo(before.lease());
        assertThat(after.state()).isEqualTo(before.state());
    }

    @Test
    default void applySubmittedStoresTheRemoteTaskAndClearsTheLease() {
        heartbeat(A);
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(claim)).isTrue();
        TaskRecord before = record(id);
        advance(Duration.ofMillis(1500));
        Instant firstPoll = now().plusSeconds(5);
        StoredSnapshot snapshot = snapshot(TaskStatus.WORKING);

        assertThat(repo().applySubmitted(claim, new SubmitWrite("remote-7", snapshot, 120_000L, PROTOCOL, A, firstPoll,
                null))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state()).isEqualTo(new TaskRecord.State(TaskStatus.WORKING, snapshot.statusMessage(), null,
                false, null, null, null, "remote-7", 120_000L, PROTOCOL, A, A, now(), null, null, null, null));
        assertThat(after.control()).isEqualTo(new TaskRecord.Control(firstPoll, null, 1, 0, 0, 0, null, null, null,
                before.control().submitAttemptedAt()));
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.outbox()).isEqualTo(before.outbox());
    }

    @Test
    default void applySubmittedStoresTheEndpointSessionThatEveryLaterClaimReadsBack() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(submit)).isTrue();

        SubmitWrite write = submitted("r-" + id, null, SESSION);
        assertThat(repo().applySubmitted(submit, write)).isTrue();
        assertThat(record(id).state().endpointSession()).isEqualTo(SESSION);
        assertThat(write + " " + record(id)).as("the write and the row as a log line shows them")
                .doesNotContain(SESSION).contains("endpointSession=(redacted)");
        assertThat(peer().find(id).orElseThrow().state().endpointSession()).as("read through another handle")
                .isEqualTo(SESSION);
        assertThat(repo().list(TaskQuery.all(10))).singleElement()
                .extracting(task -> task.state().endpointSession()).isEqualTo(SESSION);

        // the creator is gone: another worker takes the task over and polls in the session that created it
        List<ClaimedTask> polled = claim(ClaimPhase.POLL, B, 10);
        assertThat(polled).singleElement().extracting(claimed -> claimed.task().state().endpointSession())
                .isEqualTo(SESSION);
        assertThat(repo().applyOutcome(polled.get(0).claim(), outcome(id, TaskStatus.WORKING, now()))).isTrue();
        assertThat(record(id).state().endpointSession()).as("kept by the writes after the submit").isEqualTo(SESSION);
        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(claim(ClaimPhase.CANCEL, C, 10)).singleElement()
                .extracting(claimed -> claimed.task().state().endpointSession()).isEqualTo(SESSION);
    }

    @Test
    default void applySubmittedWithoutAnEndpointSessionStoresNone() {
        TaskId id = create();
        Claim submit = claimRow(ClaimPhase.SUBMIT, A, id);

        assertThat(repo().applySubmitted(submit, submitted("r-" + id, null))).isTrue();
        assertThat(record(id).state().endpointSession()).isNull();
        assertThat(claim(ClaimPhase.POLL, B, 10)).singleElement()
                .extracting(claimed -> claimed.task().state().endpointSession()).isNull();
    }

    @Test
    default void applySubmittedWithATerminalSnapshotCompletesTheTaskAndRecordsItsEvent() {
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        StoredSnapshot done = snapshot(TaskStatus.COMPLETED);

        assertThat(repo().applySubmitted(claim, new SubmitWrite("remote-8", done, null, PROTOCOL, null, null,
                eventOf(id, done)))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(after.state().resultJson()).isEqualTo(done.resultJson());
        assertThat(after.state().completedAt()).isEqualTo(now());
        assertThat(after.control().nextControlAt()).isNull();
        assertThat(after.outbox().status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(after.outbox().eventVersion()).isEqualTo(1);
        assertThat(after.outbox().eventPayload()).isEqualTo(eventOf(id, done).payloadJson());
        assertThat(claim(ClaimPhase.POLL, B, 10)).isEmpty();
    }

    @Test
    default void theRemoteTaskIdIsUniquePerServer() {
        TaskId first = create(SERVER);
        TaskId second = create(SERVER);
        TaskId elsewhere = create(OTHER_SERVER);
        assertThat(repo().applySubmitted(claimRow(ClaimPhase.SUBMIT, A, first), submitted("same", null))).isTrue();
        Claim secondClaim = claimRow(ClaimPhase.SUBMIT, A, second);
        TaskRecord before = record(second);

        assertThatThrownBy(() -> repo().applySubmitted(secondClaim, submitted("same", null)))
                .isInstanceOf(DuplicateTaskException.class)
                .hasMessageContaining("same");
        assertThat(record(second)).isEqualTo(before);
        assertThat(repo().applySubmitted(secondClaim, submitted("other", null))).isTrue();
        assertThat(repo().applySubmitted(claimRow(ClaimPhase.SUBMIT, A, elsewhere), submitted("same", null))).isTrue();
        assertThat(record(elsewhere).state().remoteTaskId()).isEqualTo("same");
    }

    @Test
    default void manyPendingRowsWithoutARemoteIdAreNotDuplicates() {
        for (int i = 0; i < 5; i++) {
            create(SERVER);
        }
        TaskId failedLocally = create(SERVER);
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, failedLocally);
        StoredSnapshot refused = StoredSnapshot.failed(ErrorCodes.SUBMIT_REFUSED, "no such tool");
        assertThat(repo().applyOutcome(claim, new OutcomeWrite(refused, null, null, null))).isTrue();

        assertThat(repo().countByStatus().get(TaskStatus.PENDING)).isEqualTo(5);
        assertThat(record(failedLocally).state().remoteTaskId()).isNull();
    }

    @Test
    default void inputRequiredPersistsWithTheSlowNextControlAtGiven() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        Instant slow = now().plus(Duration.ofMinutes(1));

        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.INPUT_REQUIRED, slow))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(after.state().inputRequiredJson())
                .isEqualTo(snapshot(TaskStatus.INPUT_REQUIRED).inputRequiredJson());
        assertThat(after.state().completedAt()).isNull();
        assertThat(after.control().nextControlAt()).isEqualTo(slow);
        assertThat(after.control().lastPolledAt()).isEqualTo(now());
        assertThat(after.outbox().status()).isEqualTo(NotificationStatus.PENDING);
        advance(Duration.ofSeconds(59));
        assertThat(claim(ClaimPhase.POLL, A, 10)).isEmpty();
        advance(Duration.ofSeconds(1));
        assertThat(claimedIds(ClaimPhase.POLL, A, 10)).containsExactly(id);
    }

    @Test
    default void aResultReplacesEverySnapshotFieldAndKeepsTheTtlWhenNoneIsGiven() {
        TaskId id = working();
        Claim first = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(first, outcome(id, TaskStatus.INPUT_REQUIRED, now()))).isTrue();
        Claim second = claimRow(ClaimPhase.POLL, A, id);

        assertThat(repo().applyOutcome(second, outcome(id, TaskStatus.FAILED, null))).isTrue();
        TaskRecord after = record(id);
        StoredSnapshot failed = snapshot(TaskStatus.FAILED);
        assertThat(after.state()).isEqualTo(new TaskRecord.State(TaskStatus.FAILED, null, null, false,
                failed.error(), failed.errorCode(), null, "r-" + id, 600_000L, PROTOCOL, null, A, now(), now(), null,
                null, null));
        assertThat(after.control().nextControlAt()).isNull();
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
    }

    @Test
    default void aFailureReleaseSchedulesFromTheWriteAndCountsConsecutiveErrors() {
        TaskId id = working();
        Claim first = claimRow(ClaimPhase.POLL, A, id);
        Instant failedAt = now().plusMillis(700);
        advance(Duration.ofSeconds(1));

        assertThat(repo().releaseAfterFailure(first, new FailureWrite("HTTP 503", failedAt, failedAt.plusSeconds(2),
                false, null))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.control().nextControlAt()).isEqualTo(failedAt.plusSeconds(2));
        assertThat(after.control().lastPollError()).isEqualTo("HTTP 503");
        assertThat(after.control().consecutiveErrorCount()).isEqualTo(1);
        assertThat(after.state().updatedAt()).isEqualTo(failedAt);
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(claim(ClaimPhase.POLL, A, 10)).isEmpty();

        advance(Duration.ofSeconds(2));
        Claim second = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().releaseAfterFailure(second, failure("HTTP 502", now()))).isTrue();
        assertThat(record(id).control().consecutiveErrorCount()).isEqualTo(2);
        assertThat(record(id).control().lastPollError()).isEqualTo("HTTP 502");
    }

    @Test
    default void aSuccessfulResultResetsTheErrorCountAndClearsThePhaseError() {
        TaskId id = working();
        Claim failed = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().releaseAfterFailure(failed, failure("timeout", now()))).isTrue();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);

        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.WORKING, now().plusSeconds(5)))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.control().consecutiveErrorCount()).isZero();
        assertThat(after.control().lastPollError()).isNull();
        assertThat(after.control().lastPolledAt()).isEqualTo(now());
        assertThat(after.control().pollAttemptCount()).isEqualTo(2);
    }

    @Test
    default void aCancelPhaseFailureRecordsTheCancelErrorOnly() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().releaseAfterFailure(poll, failure("poll timeout", now()))).isTrue();
        assertThat(repo().requestCancel(id)).isNotNull();
        Claim cancel = claimRow(ClaimPhase.CANCEL, A, id);

        assertThat(repo().releaseAfterFailure(cancel, failure("cancel refused", now().plusSeconds(1)))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.control().lastCancelError()).isEqualTo("cancel refused");
        assertThat(after.control().lastPollError()).isEqualTo("poll timeout");
        assertThat(after.control().consecutiveErrorCount()).isEqualTo(2);

        advance(Duration.ofSeconds(1));
        Claim retry = claimRow(ClaimPhase.CANCEL, A, id);
        assertThat(repo().applyOutcome(retry, outcome(id, TaskStatus.CANCELLED, null))).isTrue();
        assertThat(record(id).control().lastCancelError()).isNull();
        assertThat(record(id).control().cancelAttemptCount()).isEqualTo(2);
    }

    @Test
    default void aFailureReleaseClearsTheSubmitAttemptOnlyWhenAsked() {
        TaskId kept = create();
        TaskId cleared = create();
        for (TaskId id : new TaskId[] {kept, cleared}) {
            Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
            assertThat(repo().recordSubmitAttempt(claim)).isTrue();
            assertThat(repo().releaseAfterFailure(claim,
                    new FailureWrite("connect failed", now(), now(), id.equals(cleared), null))).isTrue();
        }

        assertThat(record(kept).control().submitAttemptedAt()).isEqualTo(now());
        assertThat(record(cleared).control().submitAttemptedAt()).isNull();
    }

    @Test
    default void aFailureReleaseRecordsItsDegradedEventOncePerFingerprint() {
        TaskId id = working();
        AttentionEvent degraded = AttentionEvent.trackingDegraded(id, SERVER, TaskStatus.WORKING, "episode-1", "503");
        for (int i = 0; i < 2; i++) {
            Claim claim = claimRow(ClaimPhase.POLL, A, id);
            assertThat(repo().releaseAfterFailure(claim, new FailureWrite("503", now(), now(), false, degraded)))
                    .isTrue();
        }

        TaskRecord after = record(id);
        assertThat(after.outbox().eventVersion()).isEqualTo(1);
        assertThat(after.outbox().eventFingerprint()).isEqualTo(degraded.fingerprint());
        assertThat(after.outbox().eventPayload()).isEqualTo(degraded.payloadJson());
        assertThat(after.outbox().status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(after.outbox().nextAt()).isEqualTo(now());
    }

    @Test
    default void aCancellationReleasePreservesAllFailureStateAndTheDueTime() {
        TaskId id = working();
        Claim failed = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().releaseAfterFailure(failed, new FailureWrite("timeout", now(), now(), true, null))).isTrue();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord claimed = record(id);
        advance(Duration.ofSeconds(3));

        assertThat(repo().releaseCancelled(claim)).isTrue();
        assertThat(record(id)).isEqualTo(withLease(claimed, TaskRecord.Lease.NONE));
        assertThat(claimedIds(ClaimPhase.POLL, B, 10)).containsExactly(id);
    }

    @Test
    default void errorsAreStoredCapped() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        String huge = "x".repeat(SnapshotNormalizer.MAX_ERROR_CHARS * 3);

        assertThat(repo().releaseAfterFailure(claim, failure(huge, now()))).isTrue();
        assertThat(record(id).control().lastPollError())
                .isEqualTo(SnapshotNormalizer.cap(huge, SnapshotNormalizer.MAX_ERROR_CHARS));
    }

    @Test
    default void instantsFromWritesAreStoredAtMillisecondPrecision() {
        TaskId id = working();
        Claim claim = claimRow(ClaimPhase.POLL, A, id);
        Instant failedAt = now().plusNanos(1_234_567);
        Instant next = failedAt.plusSeconds(1).plusNanos(999_999);

        assertThat(repo().releaseAfterFailure(claim, new FailureWrite("timeout", failedAt, next, false, null))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state().updatedAt()).isEqualTo(failedAt.truncatedTo(ChronoUnit.MILLIS));
        assertThat(after.control().nextControlAt()).isEqualTo(next.truncatedTo(ChronoUnit.MILLIS));
        advance(Duration.ofSeconds(2));
        Claim renewed = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().renew(renewed, LEASE.plusNanos(500_000))).isTrue();
        assertThat(record(id).lease().expiresAt()).isEqualTo(now().plus(LEASE));
    }
}
