package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Contract, input rounds of the 2026-07-28 tasks extension. A user's answers wait in
 * {@code input_responses} until a control claim delivers them; a {@code tools/call} that asks for input before it
 * creates any task is an input round without a remote id, sent again (submit phase) once answered.
 */
public interface InputRoundContract extends RepositoryFixture {
    String PROTOCOL_2026 = "2026-07-28";
    String ROUND_STATE = "opaque-state-1";

    /** A row whose create request asked for input before creating a task: unanswered, waiting, no lease. */
    private TaskId inputRound() {
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(claim)).isTrue();
        assertThat(repo().applySubmitted(claim, roundWrite(id, ROUND_STATE))).isTrue();
        return id;
    }

    private SubmitWrite roundWrite(TaskId id, String requestState) {
        StoredSnapshot asked = snapshot(TaskStatus.INPUT_REQUIRED);
        return new SubmitWrite(null, asked, null, PROTOCOL_2026, null, null, eventOf(id, asked), requestState);
    }

    /** A created remote task that asks for input, polled next in an hour (only an answer makes it due earlier). */
    private TaskId remoteInputRequired() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.INPUT_REQUIRED, now().plus(Duration.ofHours(1)))))
                .isTrue();
        return id;
    }

    private static TaskRecord withAnswers(TaskRecord record, String answers, Instant at) {
        TaskRecord.State s = record.state();
        TaskRecord.Control c = record.control();
        return new TaskRecord(record.id(), record.definition(),
                new TaskRecord.State(s.status(), s.statusMessage(), s.resultJson(), s.resultTruncated(), s.error(),
                        s.errorCode(), s.inputRequiredJson(), s.remoteTaskId(), s.remoteTtlMs(), s.protocolVersion(),
                        s.endpointOwner(), s.createdBy(), at, s.completedAt(), answers, s.requestState(),
                        s.endpointSession()),
                new TaskRecord.Control(at, c.lastPolledAt(), c.submitAttemptCount(), c.pollAttemptCount(),
                        c.cancelAttemptCount(), c.consecutiveErrorCount(), c.lastPollError(), c.lastCancelError(),
                        c.cancelRequestedAt(), c.submitAttemptedAt()),
                record.lease(), record.outbox());
    }

    @Test
    default void anAnswerIsStoredPendingAndMakesTheRowDueNow() {
        TaskId id = remoteInputRequired();
        TaskRecord before = record(id);
        advance(Duration.ofSeconds(3));
        assertThat(claim(ClaimPhase.POLL, A, 10)).isEmpty();

        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(record(id)).isEqualTo(withAnswers(before, "{\"size\":3}", now()));
        List<ClaimedTask> claimed = claim(ClaimPhase.POLL, A, 10);
        assertThat(claimed).hasSize(1);
        assertThat(claimed.get(0).task().state().inputResponsesJson()).isEqualTo("{\"size\":3}");
    }

    @Test
    default void aSecondAnswerToTheSameKeyIsADuplicateAndChangesNothing() {
        TaskId id = remoteInputRequired();
        assertThat(repo().answerInput(id, "size", "\"small\"")).isEqualTo(AnswerOutcome.ACCEPTED);
        TaskRecord first = record(id);
        advance(Duration.ofSeconds(1));

        assertThat(repo().answerInput(id, "size", "\"large\"")).isEqualTo(AnswerOutcome.DUPLICATE);
        assertThat(record(id)).isEqualTo(first);
    }

    @Test
    default void answersToDifferentKeysAreAllKeptAsOneCanonicalObject() {
        TaskId id = remoteInputRequired();

        assertThat(repo().answerInput(id, "b", "{ \"z\" : [1, 2], \"a\" : null }")).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(repo().answerInput(id, "a \"quoted\".key", "true")).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(record(id).state().inputResponsesJson())
                .isEqualTo("{\"a \\\"quoted\\\".key\":true,\"b\":{\"a\":null,\"z\":[1,2]}}");
    }

    @Test
    default void concurrentAnswersToDifferentKeysAreAllKept() throws Exception {
        TaskId id = remoteInputRequired();
        TaskRepository peer = peer();
        int writers = 4;
        int keysEach = 10;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<List<AnswerOutcome>>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                TaskRepository handle = w % 2 == 0 ? repo() : peer;
                int writer = w;
                Callable<List<AnswerOutcome>> answering = () -> {
                    start.await();
                    List<AnswerOutcome> outcomes = new ArrayList<>();
                    for (int k = 0; k < keysEach; k++) {
                        outcomes.add(handle.answerInput(id, "k" + writer + "-" + k, String.valueOf(k)));
                    }
                    return outcomes;
                };
                results.add(pool.submit(answering));
            }
            start.countDown();
            for (Future<List<AnswerOutcome>> result : results) {
                assertThat(result.get(2, TimeUnit.MINUTES)).containsOnly(AnswerOutcome.ACCEPTED);
            }
        } finally {
            pool.shutdownNow();
        }
        String stored = record(id).state().inputResponsesJson();
        for (int w = 0; w < writers; w++) {
            for (int k = 0; k < keysEach; k++) {
                assertThat(stored).contains("\"k" + w + "-" + k + "\":" + k);
            }
        }
        assertThat(stored.split(",")).hasSize(writers * keysEach);
    }

    @Test
    default void anAnswerIsRefusedWhenTheTaskIsNotWaitingForInput() {
        TaskId pending = create();
        TaskId working = working();
        TaskId completed = completedWithEvent();
        for (TaskId id : List.of(pending, working, completed)) {
            TaskRecord before = record(id);
            assertThat(repo().answerInput(id, "size", "3")).as("answer to %s", before.status())
                    .isEqualTo(AnswerOutcome.NOT_WAITING);
            assertThat(record(id)).isEqualTo(before);
        }
        assertThat(repo().answerInput(TaskId.of("task-unknown"), "size", "3")).isEqualTo(AnswerOutcome.NOT_FOUND);
        assertThat(repo().find(TaskId.of("task-unknown"))).isEmpty();
    }

    @Test
    default void anAnswerThatIsNotJsonIsRejectedAndChangesNothing() {
        TaskId id = remoteInputRequired();
        TaskRecord before = record(id);

        assertThatThrownBy(() -> repo().answerInput(id, "size", "{not json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'size'").hasMessageContaining("not valid JSON");
        assertThat(record(id)).isEqualTo(before);
    }

    @Test
    default void anAnswerLeavesAHeldLeaseAlone() {
        TaskId id = remoteInputRequired();
        advance(Duration.ofHours(1));
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        TaskRecord claimed = record(id);

        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(record(id).lease()).isEqualTo(claimed.lease());
        assertThat(repo().releaseCancelled(poll)).isTrue();
    }

    @Test
    default void applySubmittedStoresAnInputRoundBeforeAnyTask() {
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(claim)).isTrue();
        TaskRecord before = record(id);
        advance(Duration.ofSeconds(2));
        StoredSnapshot asked = snapshot(TaskStatus.INPUT_REQUIRED);

        assertThat(repo().applySubmitted(claim, roundWrite(id, ROUND_STATE))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state()).isEqualTo(new TaskRecord.State(TaskStatus.INPUT_REQUIRED, asked.statusMessage(),
                null, false, null, null, asked.inputRequiredJson(), null, null, PROTOCOL_2026, null, null, now(),
                null, null, ROUND_STATE, null));
        assertThat(after.state().awaitsInputBeforeTask()).isTrue();
        assertThat(after.control()).isEqualTo(new TaskRecord.Control(null, null, 1, 0, 0, 0, null, null, null,
                null));
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.outbox().eventVersion()).isEqualTo(before.outbox().eventVersion() + 1);
        assertThat(after.outbox().eventPayload()).isEqualTo(eventOf(id, asked).payloadJson());
        assertThat(after.outbox().status()).isEqualTo(NotificationStatus.PENDING);
    }

    @Test
    default void applySubmittedWithoutARemoteIdFinishesTheCallAtOnce() {
        TaskId id = create();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(claim)).isTrue();
        StoredSnapshot done = snapshot(TaskStatus.COMPLETED);

        assertThat(repo().applySubmitted(claim, new SubmitWrite(null, done, null, PROTOCOL_2026, null, null,
                eventOf(id, done), null))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state()).isEqualTo(new TaskRecord.State(TaskStatus.COMPLETED, done.statusMessage(),
                done.resultJson(), false, null, null, null, null, null, PROTOCOL_2026, null, null, now(), now(),
                null, null, null));
        assertThat(after.control().nextControlAt()).isNull();
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.outbox().eventPayload()).isEqualTo(eventOf(id, done).payloadJson());
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        assertThat(claim(ClaimPhase.POLL, B, 10)).isEmpty();
        assertThat(claim(ClaimPhase.CANCEL, B, 10)).isEmpty();
    }

    @Test
    default void aSubmitClaimTakesAnInputRoundOnlyOnceItIsAnswered() {
        TaskId id = inputRound();
        advance(Duration.ofDays(1));
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        assertThat(claim(ClaimPhase.POLL, B, 10)).isEmpty();

        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(claim(ClaimPhase.POLL, B, 10)).as("nothing to poll without a remote task").isEmpty();
        List<ClaimedTask> claimed = claim(ClaimPhase.SUBMIT, B, 10);
        assertThat(claimed).hasSize(1);
        TaskRecord task = claimed.get(0).task();
        assertThat(task.state().inputResponsesJson()).isEqualTo("{\"size\":3}");
        assertThat(task.state().requestState()).isEqualTo(ROUND_STATE);
        assertThat(task.control().submitAttemptCount()).isEqualTo(2);
    }

    @Test
    default void aPollClaimNeverTakesARowWithoutARemoteId() {
        TaskId round = inputRound();
        assertThat(repo().answerInput(round, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        create();

        assertThat(claim(ClaimPhase.POLL, A, 10)).isEmpty();
    }

    @Test
    default void aRetriedInputRoundThatCreatesATaskClearsTheRoundState() {
        heartbeat(A);
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim retry = claimRow(ClaimPhase.SUBMIT, B, id);
        assertThat(repo().recordSubmitAttempt(retry)).isTrue();
        assertThat(record(id).control().submitAttemptedAt()).isEqualTo(now());
        advance(Duration.ofSeconds(1));

        assertThat(repo().applySubmitted(retry, new SubmitWrite("r-" + id, snapshot(TaskStatus.WORKING), 60_000L,
                PROTOCOL_2026, null, now().plusSeconds(5), null, null))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(after.state().remoteTaskId()).isEqualTo("r-" + id);
        assertThat(after.state().createdBy()).isEqualTo(B);
        assertThat(after.state().inputRequiredJson()).isNull();
        assertThat(after.state().inputResponsesJson()).isNull();
        assertThat(after.state().requestState()).isNull();
        assertThat(after.state().awaitsInputBeforeTask()).isFalse();
        assertThat(after.control().nextControlAt()).isEqualTo(now().plusSeconds(5));
        advance(Duration.ofSeconds(5));
        assertThat(claimedIds(ClaimPhase.POLL, A, 10)).containsExactly(id);
    }

    @Test
    default void aRetriedInputRoundMayAskAgainWithNewState() {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim retry = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(retry)).isTrue();
        // answers the old round: the create request in flight carries {"size":3} only
        assertThat(repo().answerInput(id, "late", "1")).isEqualTo(AnswerOutcome.ACCEPTED);

        assertThat(repo().applySubmitted(retry, roundWrite(id, "opaque-state-2"))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(after.state().requestState()).isEqualTo("opaque-state-2");
        assertThat(after.state().inputResponsesJson()).isNull();
        assertThat(after.control().submitAttemptedAt()).isNull();
        assertThat(after.control().nextControlAt()).isNull();
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
    }

    @Test
    default void aSubmitClaimOfAnInputRoundCanEndItLocally() {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim retry = claimRow(ClaimPhase.SUBMIT, A, id);
        StoredSnapshot refused = StoredSnapshot.failed(ErrorCodes.SUBMIT_REFUSED, "no such tool");

        assertThat(repo().applyOutcome(retry, new OutcomeWrite(refused, null, null, null, "{\"size\":3}"))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(after.state().completedAt()).isEqualTo(now());
        assertThat(after.state().inputResponsesJson()).isNull();
        assertThat(after.state().requestState()).isNull();
    }

    @Test
    default void deliveredAnswersThatAreUnchangedAreCleared() {
        TaskId id = remoteInputRequired();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        ClaimedTask claimed = claim(ClaimPhase.POLL, A, 10).get(0);
        String delivered = claimed.task().state().inputResponsesJson();
        Instant next = now().plusSeconds(5);

        assertThat(repo().applyOutcome(claimed.claim(), new OutcomeWrite(snapshot(TaskStatus.WORKING), null, next, null,
                delivered))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(after.state().inputResponsesJson()).isNull();
        assertThat(after.control().nextControlAt()).isEqualTo(next);
    }

    @Test
    default void answersAddedWhileOthersWereDeliveredStayPendingAndDue() {
        TaskId id = remoteInputRequired();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        ClaimedTask claimed = claim(ClaimPhase.POLL, A, 10).get(0);
        String delivered = claimed.task().state().inputResponsesJson();
        assertThat(repo().answerInput(id, "color", "\"red\"")).isEqualTo(AnswerOutcome.ACCEPTED);
        advance(Duration.ofSeconds(1));

        assertThat(repo().applyOutcome(claimed.claim(), new OutcomeWrite(snapshot(TaskStatus.INPUT_REQUIRED), null,
                now().plus(Duration.ofHours(1)), null, delivered))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state().inputResponsesJson()).isEqualTo("{\"color\":\"red\",\"size\":3}");
        assertThat(after.control().nextControlAt()).isEqualTo(now());
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
    }

    @Test
    default void aResultThatDeliveredNothingLeavesPendingAnswersAlone() {
        TaskId id = remoteInputRequired();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        Instant next = now().plusSeconds(30);

        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.INPUT_REQUIRED, next))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.state().inputResponsesJson()).isEqualTo("{\"size\":3}");
        assertThat(after.control().nextControlAt()).isEqualTo(next);
    }

    @Test
    default void aTerminalResultDropsPendingAnswers() {
        TaskId id = remoteInputRequired();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim poll = claimRow(ClaimPhase.POLL, A, id);

        assertThat(repo().applyOutcome(poll, outcome(id, TaskStatus.COMPLETED, null))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(after.state().inputResponsesJson()).isNull();
        assertThat(after.control().nextControlAt()).isNull();
    }

    @Test
    default void aCancelRequestEndsAnInputRoundAtOnce() {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim retry = claimRow(ClaimPhase.SUBMIT, A, id);
        advance(Duration.ofSeconds(2));

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        TaskRecord after = record(id);
        StoredSnapshot cancelled = StoredSnapshot.cancelled(null);
        assertThat(after.state()).isEqualTo(new TaskRecord.State(TaskStatus.CANCELLED, cancelled.statusMessage(),
                null, false, cancelled.error(), cancelled.errorCode(), null, null, null, PROTOCOL_2026, null, null,
                now(), now(), null, null, null));
        assertThat(after.control().cancelRequestedAt()).isEqualTo(now());
        assertThat(after.control().nextControlAt()).isNull();
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.outbox().eventPayload()).isEqualTo(eventOf(id, cancelled).payloadJson());
        assertThat(repo().recordSubmitAttempt(retry)).isFalse();
        assertThat(repo().answerInput(id, "color", "1")).isEqualTo(AnswerOutcome.NOT_WAITING);
        assertThat(claim(ClaimPhase.CANCEL, A, 10)).isEmpty();
    }

    @Test
    default void aCancelRequestWhileAnInputRoundIsSentAgainWaitsForItsOutcome() {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim retry = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo().recordSubmitAttempt(retry)).isTrue();

        assertThat(repo().requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(record(id).lease().token()).isEqualTo(retry.token());
        assertThat(repo().applySubmitted(retry, roundWrite(id, "opaque-state-2"))).isTrue();
        TaskRecord after = record(id);
        assertThat(after.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(after.control().nextControlAt()).isEqualTo(now());
        assertThat(after.control().submitAttemptedAt()).isNull();
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        assertThat(claimedIds(ClaimPhase.CANCEL, B, 10)).containsExactly(id);
    }

    @Test
    default void aStaleSubmitResultOfAnInputRoundIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim stale = claimRow(ClaimPhase.SUBMIT, A, id);

        assertStaleWriteRejected(FencedWrite.APPLY_SUBMITTED, id,
                () -> repo().applySubmitted(stale, roundWrite(id, "stale-state")), claimedBy(ClaimPhase.SUBMIT, id));
    }

    @Test
    default void aStaleSubmitAttemptOfAnInputRoundIsRejectedAndLeavesTheRowWhole() throws Exception {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim stale = claimRow(ClaimPhase.SUBMIT, A, id);

        assertStaleWriteRejected(FencedWrite.RECORD_SUBMIT_ATTEMPT, id, () -> repo().recordSubmitAttempt(stale),
                claimedBy(ClaimPhase.SUBMIT, id));
    }

    @Test
    default void aStaleResultThatDeliveredAnswersIsRejectedAndLeavesThemPending() throws Exception {
        TaskId id = remoteInputRequired();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim stale = claimRow(ClaimPhase.POLL, A, id);

        assertStaleWriteRejected(FencedWrite.APPLY_OUTCOME, id,
                () -> repo().applyOutcome(stale, new OutcomeWrite(snapshot(TaskStatus.WORKING), null, now(), null,
                        "{\"size\":3}")),
                claimedBy(ClaimPhase.POLL, id));
        assertThat(record(id).state().inputResponsesJson()).isEqualTo("{\"size\":3}");
    }

    @Test
    default void submitWritesForAnInputRoundAreFencedLikeThoseOfAPendingRow() {
        TaskId id = inputRound();
        assertThat(repo().answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        Claim retry = claimRow(ClaimPhase.SUBMIT, A, id);
        advance(LEASE);
        TaskRecord expired = record(id);

        assertThat(repo().recordSubmitAttempt(retry)).as("expired").isFalse();
        assertThat(repo().applySubmitted(retry, roundWrite(id, "late"))).as("expired").isFalse();
        assertThat(repo().applyOutcome(retry, outcome(id, TaskStatus.FAILED, null))).as("expired").isFalse();
        assertThat(record(id)).isEqualTo(expired);

        TaskId remote = remoteInputRequired();
        assertThat(repo().answerInput(remote, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).extracting(claimed -> claimed.claim().taskId())
                .containsExactly(id);
    }
}
