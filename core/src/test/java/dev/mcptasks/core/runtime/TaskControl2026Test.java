package dev.mcptasks.core.runtime;

import static dev.mcptasks.testkit.driver.GatedDriver.Kind.ANSWER;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.CANCEL;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.STATUS;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.SUBMIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.InputRound;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedCall;
import dev.mcptasks.testkit.driver.GatedDriver;
import dev.mcptasks.testkit.faults.FaultInjectingRepository;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The 2026-07-28 tasks extension in the control loop, one operation at a time on the in-memory store: the three
 * answers of a create request, answers delivered before the status read, cancel as an acknowledgement, and tasks
 * driven under the protocol version they were created with.
 */
class TaskControl2026Test {
    private static final Duration POLL = LifecycleHarness.POLL;
    private static final Duration INPUT_POLL = Duration.ofSeconds(5);
    private static final String V2026 = "2026-07-28";
    private static final String V2025 = "2025-11-25";
    private static final String TWO_REQUESTS = "{\"approve\":{\"method\":\"elicitation/create\",\"params\":"
            + "{\"message\":\"Deploy?\"}},\"budget\":{\"method\":\"elicitation/create\",\"params\":"
            + "{\"message\":\"Budget?\"}}}";
    private static final String ACCEPT = "{\"action\":\"accept\",\"content\":{\"ok\":true}}";

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final FaultInjectingRepository repository =
            new FaultInjectingRepository(new InMemoryTaskRepository(clock, ids));
    private final GatedDriver driver = new GatedDriver("gated", clock);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("once", "gated", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final RecordingListener events = new RecordingListener();
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), LifecycleHarness.settings(4), repository,
            new TaskDriverRegistry(List.of(driver), servers), servers, clock, () -> 0.5, executor, events);

    @AfterEach
    void shutdown() {
        driver.failAllOpen(new RemoteCallException(RemoteFailure.TRANSIENT, "test over"));
        executor.shutdownNow();
    }

    @Test
    void callThatFinishesAtOnceIsTerminalWithoutARemoteTask() {
        TaskId id = service.submit("once", "echo", "{}").id();
        driver.script(SUBMIT, id, new SubmitResult(new RemoteTaskSnapshot(null, TaskStatus.COMPLETED, null,
                "{\"content\":[]}", null, null, null, null, null), V2026, true));

        TaskRecord row = runOnce(id, 1);

        assertThat(row.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(row.state().resultJson()).isEqualTo("{\"content\":[]}");
        assertThat(row.state().remoteTaskId()).isNull();
        assertThat(row.state().protocolVersion()).isEqualTo(V2026);
        assertThat(row.state().endpointOwner()).as("nothing lives in this worker's endpoint").isNull();
        assertThat(row.state().completedAt()).isEqualTo(clock.now());
        assertThat(row.control().nextControlAt()).isNull();
        assertThat(row.outbox().eventVersion()).isEqualTo(1);
        clock.advance(POLL.multipliedBy(10));
        worker.tick();
        assertThat(driver.calls()).hasSize(1);
    }

    @Test
    void inputRoundWaitsForAnswersThenSendsTheCreateRequestAgainWithThemAndTheRequestState() {
        TaskId id = service.submit("once", "deploy", "{\"env\":\"prod\"}").id();
        driver.script(SUBMIT, id, new SubmitResult(new RemoteTaskSnapshot(null, TaskStatus.INPUT_REQUIRED,
                "need approval", null, null, null, null, TWO_REQUESTS, null), V2026, true, "round-1"));

        TaskRecord round = runOnce(id, 1);

        assertThat(round.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(round.state().awaitsInputBeforeTask()).isTrue();
        assertThat(round.state().inputRequiredJson()).isEqualTo(TWO_REQUESTS);
        assertThat(round.state().requestState()).isEqualTo("round-1");
        assertThat(round.state().endpointOwner()).isNull();
        assertThat(round.control().nextControlAt()).as("waits for the user").isNull();
        assertThat(round.control().submitAttemptedAt()).as("that request's outcome is known").isNull();
        assertThat(round.outbox().eventVersion()).as("input_required asks for attention").isEqualTo(1);
        assertThat(round.outbox().eventPayload()).contains("input_required", "Deploy?");

        clock.advance(POLL.multipliedBy(10));
        worker.tick();
        assertThat(driver.calls(SUBMIT, id)).as("nothing to send before an answer").hasSize(1);

        assertThat(service.answer(id, "approve", ACCEPT)).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(service.answer(id, "budget", "{\"action\":\"decline\"}")).isEqualTo(AnswerOutcome.ACCEPTED);
        driver.script(SUBMIT, id, new SubmitResult(RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING), V2026, false));
        TaskRecord created = runOnce(id, 2);

        SubmitCall again = (SubmitCall) driver.calls(SUBMIT, id).get(1).request();
        assertThat(again.argumentsJson()).isEqualTo("{\"env\":\"prod\"}");
        assertThat(again.inputRound()).isEqualTo(new InputRound("round-1", repositoryCanonical(
                "{\"approve\":" + ACCEPT + ",\"budget\":{\"action\":\"decline\"}}")));
        assertThat(((SubmitCall) driver.calls(SUBMIT, id).get(0).request()).inputRound()).isNull();
        assertThat(created.status()).as("atMostOnce: the second request is no duplicate").isEqualTo(TaskStatus.WORKING);
        assertThat(created.state().remoteTaskId()).isEqualTo("r-1");
        assertThat(created.state().inputResponsesJson()).isNull();
        assertThat(created.state().requestState()).isNull();
        assertThat(created.state().inputRequiredJson()).isNull();
    }

    @Test
    void answersAreDeliveredBeforeTheStatusReadAndClearedByItsWrite() {
        TaskId id = waitingForInput(V2026);
        assertThat(service.answer(id, "approve", ACCEPT)).isEqualTo(AnswerOutcome.ACCEPTED);
        String stored = row(id).state().inputResponsesJson();
        assertThat(row(id).control().nextControlAt()).as("due now to deliver it").isEqualTo(clock.now());
        driver.script(ANSWER, id, GatedDriver.ACKNOWLEDGED);
        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING).withStatusMessage("deploying"));

        TaskRecord row = runOnce(id, 2);

        List<GatedCall> calls = driver.calls().subList(1, driver.calls().size());
        assertThat(calls).extracting(GatedCall::kind).containsExactly(ANSWER, STATUS);
        GatedDriver.AnswerRequest delivered = (GatedDriver.AnswerRequest) calls.get(0).request();
        assertThat(delivered.inputResponsesJson()).isEqualTo(stored);
        assertThat(delivered.task().protocolVersion()).isEqualTo(V2026);
        assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row.state().statusMessage()).isEqualTo("deploying");
        assertThat(row.state().inputResponsesJson()).isNull();
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plus(POLL));
    }

    @Test
    void answersAddedWhileOthersAreDeliveredStayPendingAndAreDeliveredWithoutWaiting() throws Exception {
        TaskId id = waitingForInput(V2026);
        service.answer(id, "approve", ACCEPT);
        driver.script(STATUS, id, new RemoteTaskSnapshot("r-1", TaskStatus.INPUT_REQUIRED, null, null, null, null,
                null, "{\"budget\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Budget?\"}}}", null));
        worker.tick();
        GatedCall delivering = driver.awaitCall(ANSWER, id, Duration.ofSeconds(20));

        assertThat(service.answer(id, "budget", "{\"action\":\"decline\"}")).isEqualTo(AnswerOutcome.ACCEPTED);
        delivering.acknowledge();
        events.await(RecordingListener.Type.SETTLED, id, 2);

        // the store compares the whole pending text: what changed meanwhile stays pending, the delivered answer too
        // (the server ignores a key it no longer waits for, so sending it again is harmless)
        String both = repositoryCanonical("{\"approve\":" + ACCEPT + ",\"budget\":{\"action\":\"decline\"}}");
        TaskRecord row = row(id);
        assertThat(row.state().inputResponsesJson()).isEqualTo(both);
        assertThat(row.control().nextControlAt()).as("not at the input_required pace").isEqualTo(clock.now());
        driver.script(ANSWER, id, GatedDriver.ACKNOWLEDGED);
        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING));
        TaskRecord after = runOnce(id, 3);
        assertThat(((GatedDriver.AnswerRequest) driver.calls(ANSWER, id).get(1).request()).inputResponsesJson())
                .isEqualTo(both);
        assertThat(after.state().inputResponsesJson()).isNull();
    }

    @Test
    void anOperationOfTwoCallsSettlesOnlyOnceItsSecondCallReturned() throws Exception {
        TaskId id = waitingForInput(V2026);
        service.answer(id, "approve", ACCEPT);
        String stored = row(id).state().inputResponsesJson();
        driver.script(ANSWER, id, GatedDriver.ACKNOWLEDGED);
        driver.onCancel(STATUS, id, GatedCall.CancelBehaviour.SWALLOW);
        worker.tick();
        GatedCall status = driver.awaitCall(STATUS, id, Duration.ofSeconds(20));

        repository.fail(FencedWrite.RENEW, id, new RepositoryUnavailableException("database unreachable", null));
        clock.advance(LifecycleHarness.STEP);
        events.await(RecordingListener.Type.FINISHED, id, 2);
        repository.heal(FencedWrite.RENEW, id);

        assertThat(status.cancelRequested()).isTrue();
        assertThat(events.count(RecordingListener.Type.SETTLED, id)).as("the status call still runs").isEqualTo(1);
        status.complete(RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING));
        events.await(RecordingListener.Type.SETTLED, id, 2);
        assertThat(row(id).status()).as("a lost claim writes nothing").isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(row(id).state().inputResponsesJson()).isEqualTo(stored);
        assertThat(row(id).lease().isHeld()).isFalse();
    }

    @Test
    void answersTheDriverCannotDeliverAreDroppedWithANoteAndNotTriedByEveryPoll() {
        TaskId id = waitingForInput(V2026);
        service.answer(id, "approve", ACCEPT);
        driver.script(ANSWER, id, new RemoteCallException(RemoteFailure.UNSUPPORTED, "driver 'gated' cannot deliver"
                + " answers to input requests"));
        driver.script(STATUS, id, new RemoteTaskSnapshot("r-1", TaskStatus.INPUT_REQUIRED, "waiting", null, null,
                null, null, TWO_REQUESTS, null));

        TaskRecord row = runOnce(id, 2);

        assertThat(row.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(row.state().inputResponsesJson()).isNull();
        assertThat(row.state().statusMessage()).startsWith("waiting (answers to input requests approve were not"
                + " delivered and were dropped: driver 'gated' cannot deliver answers");
        assertThat(row.control().consecutiveErrorCount()).isZero();
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plus(INPUT_POLL));

        clock.advance(INPUT_POLL);
        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-1", TaskStatus.INPUT_REQUIRED));
        runOnce(id, 3);
        assertThat(driver.calls(ANSWER, id)).as("not sent again").hasSize(1);
        assertThat(driver.calls(STATUS, id)).hasSize(2);
    }

    @Test
    void aFailedDeliveryKeepsTheAnswersAndBacksOffWithoutReadingTheStatus() {
        TaskId id = waitingForInput(V2026);
        service.answer(id, "approve", ACCEPT);
        String stored = row(id).state().inputResponsesJson();
        driver.script(ANSWER, id, new RemoteCallException(RemoteFailure.TRANSIENT, "connection reset"));

        TaskRecord row = runOnce(id, 2);

        assertThat(driver.calls(STATUS, id)).isEmpty();
        assertThat(row.state().inputResponsesJson()).isEqualTo(stored);
        assertThat(row.control().consecutiveErrorCount()).isEqualTo(1);
        assertThat(row.control().lastPollError()).contains("answers to input requests approve not delivered",
                "connection reset");
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plus(POLL));

        clock.advance(POLL);
        driver.script(ANSWER, id, GatedDriver.ACKNOWLEDGED);
        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING));
        TaskRecord delivered = runOnce(id, 3);
        assertThat(delivered.state().inputResponsesJson()).isNull();
        assertThat(delivered.control().consecutiveErrorCount()).isZero();
    }

    @Test
    void acknowledgedCancelIsAskedAgainAtThePollPaceAndALostRaceKeepsTheRealOutcomeWithANote() {
        TaskId id = created(V2026, TaskStatus.WORKING);
        clock.advance(POLL);
        assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        java.time.Instant requestedAt = row(id).control().cancelRequestedAt();
        driver.script(CANCEL, id, RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING).withStatusMessage("stopping"));

        TaskRecord acknowledged = runOnce(id, 2);

        assertThat(acknowledged.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(acknowledged.control().cancelRequestedAt()).isEqualTo(requestedAt);
        assertThat(acknowledged.control().nextControlAt()).as("not a hot loop").isEqualTo(clock.now().plus(POLL));
        worker.tick();
        assertThat(driver.calls(CANCEL, id)).as("not claimed again before the poll interval").hasSize(1);

        clock.advance(POLL);
        driver.script(CANCEL, id, RemoteTaskSnapshot.of("r-1", TaskStatus.COMPLETED).withStatusMessage("done")
                .withResult("{\"content\":[]}"));
        TaskRecord done = runOnce(id, 3);

        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).isEqualTo("{\"content\":[]}");
        assertThat(done.state().statusMessage()).isEqualTo("done (cancel requested at " + requestedAt
                + " came too late or was not honoured: the task completed)");
        assertThat(((RemoteTaskRef) driver.calls(CANCEL, id).get(1).request()).protocolVersion()).isEqualTo(V2026);
    }

    @Test
    void aFailedTaskAfterACancelIsNotedAndACancelThatWinsIsPlainCancelled() {
        TaskId failed = created(V2025, TaskStatus.WORKING);
        TaskId won = created(V2026, TaskStatus.WORKING);
        clock.advance(POLL);
        service.requestCancel(failed);
        service.requestCancel(won);
        driver.script(CANCEL, failed, RemoteTaskSnapshot.of("r-1", TaskStatus.FAILED).withError(null, "boom"));
        driver.script(CANCEL, won, RemoteTaskSnapshot.of("r-2", TaskStatus.CANCELLED).withStatusMessage("stopped"));

        worker.tick();
        events.await(RecordingListener.Type.SETTLED, failed, 2);
        events.await(RecordingListener.Type.SETTLED, won, 2);

        assertThat(row(failed).status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row(failed).state().error()).isEqualTo("boom");
        assertThat(row(failed).state().statusMessage()).startsWith("cancel requested at ")
                .endsWith("came too late or was not honoured: the task failed");
        assertThat(row(won).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(row(won).state().statusMessage()).isEqualTo("stopped");
    }

    @Test
    void everyCallCarriesTheProtocolVersionTheTaskWasCreatedUnder() {
        TaskId v2026 = created(V2026, TaskStatus.WORKING);
        TaskId v2025 = created(V2025, TaskStatus.WORKING);
        clock.advance(POLL);
        driver.script(STATUS, v2026, RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING));
        driver.script(STATUS, v2025, RemoteTaskSnapshot.of("r-2", TaskStatus.WORKING));

        worker.tick();
        events.await(RecordingListener.Type.SETTLED, v2026, 2);
        events.await(RecordingListener.Type.SETTLED, v2025, 2);

        RemoteTaskRef v2026Ref = (RemoteTaskRef) driver.calls(STATUS, v2026).get(0).request();
        RemoteTaskRef v2025Ref = (RemoteTaskRef) driver.calls(STATUS, v2025).get(0).request();
        assertThat(v2026Ref.protocolVersion()).isEqualTo(V2026);
        assertThat(v2026Ref.generation().answersInputRequests()).isTrue();
        assertThat(v2025Ref.protocolVersion()).isEqualTo(V2025);
        assertThat(v2025Ref.remoteTaskId()).isEqualTo("r-2");
    }

    @Test
    void aCancelOfAnInputRoundSendsNothing() {
        TaskId id = service.submit("once", "deploy", "{}").id();
        driver.script(SUBMIT, id, new SubmitResult(new RemoteTaskSnapshot(null, TaskStatus.INPUT_REQUIRED, null, null,
                null, null, null, TWO_REQUESTS, null), V2026, false, "round-1"));
        runOnce(id, 1);

        assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        worker.tick();

        assertThat(row(id).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(driver.calls()).hasSize(1);
    }

    @Test
    void aCancelRequestedWhileAnAnsweredRoundIsSentEndsTheNextRoundWithoutSendingAnything() throws Exception {
        TaskId id = service.submit("once", "deploy", "{}").id();
        driver.script(SUBMIT, id, new SubmitResult(new RemoteTaskSnapshot(null, TaskStatus.INPUT_REQUIRED, null, null,
                null, null, null, TWO_REQUESTS, null), V2026, false, "round-1"));
        runOnce(id, 1);
        service.answer(id, "approve", ACCEPT);
        worker.tick();
        GatedCall resent = driver.awaitCall(SUBMIT, id, 2, Duration.ofSeconds(20));

        assertThat(service.requestCancel(id)).as("the create request may be running").isEqualTo(
                CancelRequestOutcome.REQUESTED);
        resent.complete(new SubmitResult(new RemoteTaskSnapshot(null, TaskStatus.INPUT_REQUIRED, null, null, null,
                null, null, "{\"more\":{\"method\":\"roots/list\"}}", null), V2026, false, "round-2"));
        events.await(RecordingListener.Type.SETTLED, id, 2);
        TaskRecord row = runOnce(id, 3);

        assertThat(row.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(row.state().statusMessage()).isEqualTo(CancelHandler.CANCELLED_WHILE_INPUT_REQUIRED);
        assertThat(driver.calls()).extracting(GatedCall::kind).containsExactly(SUBMIT, SUBMIT);
    }

    /** A task created through the runtime with remote id r-N under {@code version}; not due yet. */
    private TaskId created(String version, TaskStatus status) {
        TaskId id = service.submit("once", "deploy", "{}").id();
        String remoteId = "r-" + (driver.calls().stream().filter(c -> c.kind() == SUBMIT).count() + 1);
        driver.script(SUBMIT, id, new SubmitResult(new RemoteTaskSnapshot(remoteId, status, null, null, null, null,
                null, status == TaskStatus.INPUT_REQUIRED ? TWO_REQUESTS : null, null), version, false));
        runOnce(id, 1);
        return id;
    }

    /** A created task in input_required with two pending requests ("approve", "budget"), due for its poll. */
    private TaskId waitingForInput(String version) {
        TaskId id = created(version, TaskStatus.INPUT_REQUIRED);
        clock.advance(INPUT_POLL);
        assertThat(row(id).status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        return id;
    }

    /** The stored (canonical) form of an answers object, as the store keeps it. */
    private static String repositoryCanonical(String json) {
        return dev.mcptasks.domain.StrictJson.canonicalize(json);
    }

    /** Ticks once and waits for the {@code n}-th operation on {@code id} to settle. */
    private TaskRecord runOnce(TaskId id, int n) {
        worker.tick();
        events.await(RecordingListener.Type.SETTLED, id, n);
        return row(id);
    }

    private TaskRecord row(TaskId id) {
        return repository.find(id).orElseThrow();
    }
}
