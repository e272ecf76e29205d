package dev.mcptasks.core.runtime;

import static dev.mcptasks.testkit.driver.GatedDriver.Kind.CANCEL;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.STATUS;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.SUBMIT;
import static dev.mcptasks.ports.driver.RemoteFailure.UNSUPPORTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedDriver;
import dev.mcptasks.testkit.faults.FaultInjectingRepository;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The transitions of runtime-behaviour.md section 5, one control operation at a time, on the in-memory store. */
class ControlTransitionsTest {
    private static final Duration POLL = LifecycleHarness.POLL;

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final FaultInjectingRepository repository =
            new FaultInjectingRepository(new InMemoryTaskRepository(clock, ids));
    private final GatedDriver driver = new GatedDriver("gated", clock);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("once", "gated", null, SubmitPolicy.AT_MOST_ONCE),
            new ServerProfile("again", "gated", 30_000L, SubmitPolicy.AT_LEAST_ONCE),
            new ServerProfile("broken", "broken", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final RecordingListener events = new RecordingListener();
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), LifecycleHarness.settings(4), repository,
            new TaskDriverRegistry(List.of(driver, new BrokenStatusDriver()), servers), servers, clock, () -> 0.5, executor, events);

    @AfterEach
    void shutdown() {
        driver.failAllOpen(new RemoteCallException(RemoteFailure.TRANSIENT, "test over"));
        executor.shutdownNow();
    }

    @Test
    void createdTaskStoresRemoteIdStatusEndpointOwnerAndFirstPollTime() {
        TaskId id = service.submit("once", "job", "{}").id();
        driver.script(SUBMIT, id, new SubmitResult(new RemoteTaskSnapshot("r-1", TaskStatus.WORKING, "queued", null,
                null, null, Duration.ofSeconds(3), null, 60_000L), "2025-11-25", true));

        TaskRecord row = runOnce(id);

        assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row.state().remoteTaskId()).isEqualTo("r-1");
        assertThat(row.state().statusMessage()).isEqualTo("queued");
        assertThat(row.state().protocolVersion()).isEqualTo("2025-11-25");
        assertThat(row.state().remoteTtlMs()).isEqualTo(60_000L);
        assertThat(row.state().endpointOwner()).isEqualTo(worker.workerId());
        assertThat(row.control().submitAttemptedAt()).isNotNull();
        assertThat(row.control().nextControlAt()).as("server hint, jitter factor 1").isEqualTo(clock.now().plusSeconds(3));
        assertThat(row.lease().isHeld()).isFalse();
    }

    @Test
    void refusedSubmissionIsTerminalWithTheRemoteMessage() {
        TaskId id = service.submit("once", "job", "{}").id();
        driver.script(SUBMIT, id, new RemoteCallException(RemoteFailure.REFUSED, "tool is not task-capable"));

        TaskRecord row = runOnce(id);

        assertThat(row.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_REFUSED);
        assertThat(row.state().error()).contains("tool is not task-capable");
        assertThat(row.outbox().eventVersion()).isEqualTo(1);
    }

    @Test
    void submissionThatWasNeverSentIsRetriedWithBackoffAndWithoutTheAttemptMarker() {
        TaskId id = service.submit("once", "job", "{}").id();
        driver.script(SUBMIT, id, new RemoteCallException(RemoteFailure.NOT_SENT, "connection refused"));

        TaskRecord row = runOnce(id);

        assertThat(row.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(row.control().submitAttemptedAt()).isNull();
        assertThat(row.control().consecutiveErrorCount()).isEqualTo(1);
        assertThat(row.control().lastPollError()).contains("connection refused");
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plus(POLL));
    }

    @Test
    void submissionThatMayHaveBeenSentFailsAsUnknownUnderAtMostOnceWithoutSendingAgain() {
        TaskId id = service.submit("once", "job", "{}").id();
        driver.script(SUBMIT, id, new RemoteCallException(RemoteFailure.TRANSIENT, "read timed out"));
        TaskRecord afterFailure = runOnce(id);
        assertThat(afterFailure.control().submitAttemptedAt()).isNotNull();

        clock.advance(POLL);
        TaskRecord row = runOnce(id, 2);

        assertThat(row.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN);
        assertThat(driver.calls(SUBMIT, id)).hasSize(1);
    }

    @Test
    void submissionThatMayHaveBeenSentIsSentAgainUnderAtLeastOnce() {
        TaskId id = service.submit("again", "job", "{}").id();
        driver.script(SUBMIT, id, new RemoteCallException(RemoteFailure.TRANSIENT, "read timed out"));
        driver.script(SUBMIT, id, new SubmitResult(RemoteTaskSnapshot.of("r-2", TaskStatus.WORKING), "v", false));
        runOnce(id);

        clock.advance(POLL);
        TaskRecord row = runOnce(id, 2);

        assertThat(driver.calls(SUBMIT, id)).hasSize(2);
        assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row.state().endpointOwner()).isNull();
        assertThat(row.definition().requestedTtlMs()).isEqualTo(30_000L);
    }

    @Test
    void lostRemoteTaskIsTerminal() {
        TaskId id = working("r-lost");
        driver.script(STATUS, id, new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));

        TaskRecord row = runOnce(id, 2);

        assertThat(row.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.REMOTE_TASK_LOST);
        assertThat(row.state().error()).contains("not found");
        assertThat(row.control().nextControlAt()).isNull();
    }

    @Test
    void malformedStatusAndInvalidResultJsonAreProtocolErrors() {
        List<TaskId> created = working(List.of("r-a", "r-b"));
        TaskId malformed = created.get(0);
        TaskId badResult = created.get(1);
        driver.script(STATUS, malformed, new RemoteCallException(RemoteFailure.PROTOCOL, "no status field"));
        driver.script(STATUS, badResult, RemoteTaskSnapshot.of("r-b", TaskStatus.COMPLETED).withResult("{\"x\":NaN}"));

        worker.tick();
        events.await(RecordingListener.Type.SETTLED, malformed, 2);
        events.await(RecordingListener.Type.SETTLED, badResult, 2);

        assertThat(row(malformed).state().errorCode()).isEqualTo(ErrorCodes.PROTOCOL_ERROR);
        assertThat(row(badResult).status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row(badResult).state().errorCode()).isEqualTo(ErrorCodes.PROTOCOL_ERROR);
        assertThat(row(badResult).state().resultJson()).isNull();
    }

    @Test
    void transientPollFailuresBackOffFromTheCompletionTimeAndRaiseTrackingDegradedOnce() {
        TaskId id = working("r-flaky");
        Duration[] expected = {POLL, POLL.multipliedBy(2), POLL.multipliedBy(4), POLL.multipliedBy(8)};
        for (int i = 0; i < expected.length; i++) {
            driver.script(STATUS, id, i == 1 ? new IllegalStateException("socket closed")
                    : new RemoteCallException(RemoteFailure.TRANSIENT, "timeout " + i));
            TaskRecord row = runOnce(id, i + 2);
            assertThat(row.control().consecutiveErrorCount()).isEqualTo(i + 1);
            assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plus(expected[i]));
            assertThat(row.outbox().eventVersion()).as("degraded event after 3 errors, once")
                    .isEqualTo(i + 1 >= 3 ? 1 : 0);
            assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
            clock.advance(expected[i]);
        }
        assertThat(row(id).control().lastPollError()).isEqualTo("timeout 3");
        assertThat(row(id).outbox().eventPayload()).contains("task.tracking_degraded");

        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-flaky", TaskStatus.WORKING));
        TaskRecord recovered = runOnce(id, 6);
        assertThat(recovered.control().consecutiveErrorCount()).isZero();
    }

    @Test
    void inputRequiredIsPolledNoSoonerThanTheInputRequiredInterval() {
        TaskId id = working("r-input");
        driver.script(STATUS, id, new RemoteTaskSnapshot("r-input", TaskStatus.INPUT_REQUIRED, "need a date", null,
                null, null, Duration.ofSeconds(1), "{\"ask\":\"date\"}", null));

        TaskRecord row = runOnce(id, 2);

        assertThat(row.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(row.state().inputRequiredJson()).isEqualTo("{\"ask\":\"date\"}");
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plusSeconds(5));
        assertThat(row.outbox().eventVersion()).isEqualTo(1);
    }

    @Test
    void cancelOfARowWhoseCreateMayHaveBeenSentFailsAsUnknownUnderBothPoliciesWithoutAnyRemoteCall() {
        for (String server : List.of("once", "again")) {
            TaskId id = service.submit(server, "job", "{}").id();
            driver.script(SUBMIT, id, new RemoteCallException(RemoteFailure.TRANSIENT, "read timed out"));
            runOnce(id);
            assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);

            TaskRecord row = runOnce(id, 2);

            assertThat(row.status()).as(server).isEqualTo(TaskStatus.FAILED);
            assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN);
            assertThat(row.state().error()).contains("cancel");
            assertThat(row.control().cancelRequestedAt()).isNotNull();
            assertThat(driver.calls(CANCEL, id)).isEmpty();
            assertThat(driver.calls(SUBMIT, id)).as("a cancelled task is never created again").hasSize(1);
        }
    }

    @Test
    void refusedAttemptMarkerReleasesTheSubmitClaimAtOnceSoTheCancelIsNotDelayed() throws Exception {
        TaskId id = service.submit("again", "job", "{}").id();
        driver.script(SUBMIT, id, new RemoteCallException(RemoteFailure.TRANSIENT, "read timed out"));
        runOnce(id);
        clock.advance(POLL);
        dev.mcptasks.testkit.faults.Gate gate = repository.block(
                dev.mcptasks.ports.repository.FencedWrite.RECORD_SUBMIT_ATTEMPT, id);
        worker.tick();
        assertThat(gate.awaitArrivals(1, Duration.ofSeconds(20))).isTrue();
        assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        gate.release();
        events.await(RecordingListener.Type.SETTLED, id, 2);

        assertThat(row(id).lease().isHeld()).as("released, not left to expire").isFalse();
        assertThat(repository.attempts(dev.mcptasks.ports.repository.FencedWrite.RELEASE_CANCELLED, id))
                .isEqualTo(1);
        assertThat(driver.calls(SUBMIT, id)).as("nothing sent after the refusal").hasSize(1);
        TaskRecord row = runOnce(id, 3);
        assertThat(row.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN);
    }

    @Test
    void cancelOnAServerThatCannotCancelStopsCancellingAndTracksTheTaskToItsRealEnd() {
        TaskId id = working("r-nocancel");
        service.requestCancel(id);
        driver.script(CANCEL, id, new RemoteCallException(UNSUPPORTED,
                "server 'once' does not advertise tasks.cancel"));

        TaskRecord afterCancel = runOnce(id, 2);

        assertThat(afterCancel.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(afterCancel.control().lastCancelError()).contains("does not support tasks/cancel");
        assertThat(afterCancel.control().nextControlAt()).as("polled at once").isEqualTo(clock.now());
        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-nocancel", TaskStatus.COMPLETED).withResult("{\"v\":1}"));
        TaskRecord done = runOnce(id, 3);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).isEqualTo("{\"v\":1}");
        assertThat(done.control().lastCancelError()).contains("does not support tasks/cancel");
        assertThat(driver.calls(CANCEL, id)).hasSize(1);
    }

    @Test
    void handlerThatFailsUnexpectedlyBacksOffAndCountsInsteadOfLoopingEveryTick() {
        TaskId id = service.submit("broken", "job", "{}").id();
        runOnce(id);
        clock.advance(POLL);
        TaskRecord before = row(id);

        TaskRecord row = runOnce(id, 2);

        assertThat(row.control().consecutiveErrorCount()).isEqualTo(1);
        assertThat(row.control().lastPollError()).contains("NullPointerException");
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now().plus(POLL));
        assertThat(row.lease().isHeld()).isFalse();
        worker.tick();
        assertThat(row(id).control().pollAttemptCount()).as("not claimed again before its backoff")
                .isEqualTo(before.control().pollAttemptCount() + 1);
    }

    @Test
    void cancelStoresTheTerminalStatusTheRemoteReachedFirstAndRetriesFailures() {
        List<TaskId> created = working(List.of("r-done", "r-flaky"));
        TaskId finished = created.get(0);
        TaskId flaky = created.get(1);
        service.requestCancel(finished);
        service.requestCancel(flaky);
        driver.script(CANCEL, finished, RemoteTaskSnapshot.of("r-done", TaskStatus.COMPLETED).withResult("{}"));
        driver.script(CANCEL, flaky, new RemoteCallException(RemoteFailure.PROTOCOL, "garbled"));

        worker.tick();
        events.await(RecordingListener.Type.SETTLED, finished, 2);
        events.await(RecordingListener.Type.SETTLED, flaky, 2);

        assertThat(row(finished).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(row(flaky).status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row(flaky).control().lastCancelError()).contains("garbled");
        assertThat(row(flaky).control().nextControlAt()).isEqualTo(clock.now().plus(POLL));
    }

    @Test
    void oneRecordsFailureNeverStopsItsSiblingsOrLaterPhases() {
        TaskId polled = working("r-p");
        TaskRecord orphan = repository.create(new NewTask(ids.newTaskId(), "once", "job", "{}", "no-such-driver",
                null));
        TaskId sibling = service.submit("once", "job", "{}").id();
        driver.script(SUBMIT, sibling, new SubmitResult(RemoteTaskSnapshot.of("r-s", TaskStatus.WORKING), "v",
                false));
        driver.script(STATUS, polled, RemoteTaskSnapshot.of("r-p", TaskStatus.COMPLETED).withResult("{}"));
        repository.failClaims(ClaimPhase.CANCEL, new IllegalStateException("cancel scan broke"), 1);

        worker.tick();
        events.await(RecordingListener.Type.SETTLED, orphan.id(), 1);
        events.await(RecordingListener.Type.SETTLED, sibling, 1);
        events.await(RecordingListener.Type.SETTLED, polled, 2);

        assertThat(row(orphan.id()).status()).isEqualTo(TaskStatus.PENDING);
        assertThat(row(orphan.id()).control().lastPollError()).contains("no-such-driver");
        assertThat(row(orphan.id()).control().nextControlAt()).isEqualTo(clock.now().plus(POLL));
        assertThat(row(sibling).status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row(polled).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void busyClaimScansAreRetried() {
        TaskId id = working("r-busy");
        driver.script(STATUS, id, RemoteTaskSnapshot.of("r-busy", TaskStatus.COMPLETED).withResult("{}"));
        repository.failClaims(ClaimPhase.POLL, new TransientRepositoryException("database is locked", null), 2);

        TaskRecord row = runOnce(id, 2);

        assertThat(row.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    /** A task created through the runtime with remote id {@code remoteId}, due for its first poll. */
    private TaskId working(String remoteId) {
        return working(List.of(remoteId)).get(0);
    }

    /** Tasks created through the runtime in one tick, with these remote ids, due for their first poll. */
    private List<TaskId> working(List<String> remoteIds) {
        List<TaskId> created = new java.util.ArrayList<>();
        for (String remoteId : remoteIds) {
            TaskId id = service.submit("once", "job", "{}").id();
            driver.script(SUBMIT, id, new SubmitResult(RemoteTaskSnapshot.of(remoteId, TaskStatus.WORKING), "v",
                    false));
            created.add(id);
        }
        worker.tick();
        created.forEach(id -> events.await(RecordingListener.Type.SETTLED, id, 1));
        clock.advance(POLL);
        return created;
    }

    private TaskRecord runOnce(TaskId id) {
        return runOnce(id, 1);
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

    /** A driver with a bug: creates fine, then answers status with no future at all (an unexpected exception). */
    private static final class BrokenStatusDriver implements dev.mcptasks.ports.driver.TaskDriver {
        @Override
        public String name() {
            return "broken";
        }

        @Override
        public java.util.concurrent.CompletableFuture<SubmitResult> submit(dev.mcptasks.ports.driver.SubmitCall call) {
            return java.util.concurrent.CompletableFuture.completedFuture(new SubmitResult(
                    RemoteTaskSnapshot.of("b-" + call.taskId(), TaskStatus.WORKING), "v", false));
        }

        @Override
        public java.util.concurrent.CompletableFuture<RemoteTaskSnapshot> status(
                dev.mcptasks.ports.driver.RemoteTaskRef task) {
            return null;
        }

        @Override
        public java.util.concurrent.CompletableFuture<RemoteTaskSnapshot> cancel(
                dev.mcptasks.ports.driver.RemoteTaskRef task) {
            return null;
        }
    }
}
