package dev.mcptasks.core.runtime;

import static dev.mcptasks.core.runtime.LifecycleHarness.DRAIN;
import static dev.mcptasks.core.runtime.LifecycleHarness.LEASE;
import static dev.mcptasks.core.runtime.LifecycleHarness.POLL;
import static dev.mcptasks.core.runtime.LifecycleHarness.STEP;
import static dev.mcptasks.core.runtime.LifecycleHarness.completed;
import static dev.mcptasks.core.runtime.LifecycleHarness.snapshot;
import static dev.mcptasks.core.runtime.LifecycleHarness.transientFailure;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.CANCEL;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.STATUS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.driver.GatedCall;
import dev.mcptasks.testkit.driver.GatedDriver;
import dev.mcptasks.testkit.faults.Gate;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lease lifecycle matrix of mcp-control-leases.md against the production repositories, with a manual clock and
 * gated remote calls: time moves only through {@link LifecycleHarness#advance}, and every wait is a bounded await on
 * a recorded milestone, a gate or a call.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("backends")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskLeaseLifecycleTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Parameter
    LifecycleHarness.Backend backend;

    /** Both stores by default; {@code -Dmcptasks.lifecycle.backends=SQLITE} narrows the matrix (loop runs). */
    static List<LifecycleHarness.Backend> backends() {
        String names = System.getProperty("mcptasks.lifecycle.backends", "SQLITE,POSTGRES");
        return java.util.Arrays.stream(names.split(",")).map(String::trim).filter(name -> !name.isEmpty())
                .map(LifecycleHarness.Backend::valueOf).toList();
    }

    @TempDir
    Path directory;

    private LifecycleHarness h;
    private GatedDriver driver;

    @BeforeEach
    void open() {
        h = new LifecycleHarness(backend, directory);
        driver = h.driver;
    }

    @AfterEach
    void close() throws InterruptedException {
        h.close();
    }

    // 1. slow poll result
    @Test
    void slowPollResultIsRenewedForMoreThanThreeLeasesAndItsSnapshotIsPersisted() throws Exception {
        TestWorker a = h.worker("A", 4);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);

        for (int i = 1; i <= 10; i++) {
            h.advance(STEP);
            a.awaitRenewals(id, 1 + i); // the verification, then one per third of the lease
            b.tick();
            TaskRecord row = h.row(id);
            assertThat(row.lease().owner()).isEqualTo(a.runtime.workerId());
            assertThat(row.lease().expiresAt()).isEqualTo(h.clock.now().plus(LEASE));
        }
        assertThat(driver.calls(STATUS, id)).hasSize(1);

        call.complete(completed(h.row(id), "{\"ok\":true}"));
        a.awaitFinished(id, 1);

        TaskRecord done = h.row(id);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.state().resultJson()).isEqualTo("{\"ok\":true}");
        assertThat(done.state().completedAt()).isEqualTo(h.clock.now());
        assertThat(done.lease().isHeld()).isFalse();
        assertThat(a.metrics().renewals()).isEqualTo(11);
        assertThat(a.metrics().fencedWrites()).isZero();
        assertThat(a.metrics().ownershipLosses()).isZero();
    }

    // 2. slow cancel result
    @Test
    void slowCancelResultIsRenewedForMoreThanThreeLeasesAndItsSnapshotIsPersisted() throws Exception {
        TestWorker a = h.worker("A", 4);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        assertThat(h.service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        GatedCall call = startCall(a, CANCEL, id, 1);

        for (int i = 1; i <= 10; i++) {
            h.advance(STEP);
            a.awaitRenewals(id, i);
            b.tick();
            assertThat(h.row(id).lease().owner()).isEqualTo(a.runtime.workerId());
        }
        assertThat(driver.calls(CANCEL, id)).hasSize(1);

        call.complete(snapshot(h.row(id), TaskStatus.CANCELLED));
        a.awaitFinished(id, 1);

        TaskRecord done = h.row(id);
        assertThat(done.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(done.lease().isHeld()).isFalse();
        assertThat(driver.calls(STATUS, id)).isEmpty();
        assertThat(a.metrics().fencedWrites()).isZero();
    }

    // 3. interleaved claims
    @Test
    void aSecondWorkerCannotClaimARenewedRowAndClaimsItOnceTheFirstWorkerDied() throws Exception {
        TestWorker a = h.worker("A", 4, true, h.executor);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        GatedCall callA = startCall(a, STATUS, id, 1);
        for (int i = 1; i <= 3; i++) {
            h.advance(STEP);
            a.awaitRenewals(id, 1 + i); // the verification, then one per third of the lease
            b.tick();
            assertThat(driver.calls(STATUS, id)).hasSize(1);
        }
        Instant lastExpiry = h.row(id).lease().expiresAt();

        a.die();
        h.advance(STEP);
        b.tick();
        h.advance(STEP);
        b.tick();
        assertThat(driver.calls(STATUS, id)).as("the lease has not expired yet").hasSize(1);
        h.advance(STEP);
        assertThat(h.clock.now()).isEqualTo(lastExpiry);
        b.tick();

        GatedCall callB = driver.awaitCall(STATUS, id, 2, WAIT);
        TaskRecord claimedByB = h.row(id);
        assertThat(claimedByB.lease().owner()).isEqualTo(b.runtime.workerId());
        callB.complete(completed(claimedByB, "{\"by\":\"B\"}"));
        b.awaitFinished(id, 1);
        b.awaitNotified(id, 1); // B's result took its event's delivery: its outbox settles on its own
        TaskRecord done = h.row(id);
        assertThat(done.state().resultJson()).isEqualTo("{\"by\":\"B\"}");

        // the dead worker's late answer is refused and changes nothing
        callA.complete(completed(done, "{\"by\":\"A\"}"));
        a.awaitFinished(id, 1);
        assertThat(h.row(id)).isEqualTo(done);
        assertThat(a.metrics().fencedWrites()).isEqualTo(1);
    }

    // 4. fences: expiry
    @Test
    void expiryFenceRejectsALateResultAndLeavesTheRowWhole() throws Exception {
        TestWorker a = h.worker("A", 4, true, h.executor);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);
        a.die();
        h.advance(STEP);
        h.advance(STEP);
        h.advance(STEP);
        TaskRecord expired = h.row(id);
        assertThat(expired.lease().expiresAt()).isBeforeOrEqualTo(h.clock.now());

        call.complete(completed(expired, "{\"late\":true}"));
        a.awaitFinished(id, 1);

        assertThat(h.row(id)).isEqualTo(expired);
        assertThat(h.repository.attempts(FencedWrite.APPLY_OUTCOME, id)).isEqualTo(1);
        assertThat(a.metrics().fencedWrites()).isEqualTo(1);
    }

    // 4. fences: token
    @Test
    void tokenFenceRejectsAResultOfAReplacedClaimAndLeavesTheNewClaimWhole() throws Exception {
        TestWorker a = h.worker("A", 4, true, h.executor);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        GatedCall callA = startCall(a, STATUS, id, 1);
        a.die();
        h.advance(STEP);
        h.advance(STEP);
        h.advance(STEP);
        GatedCall callB = startCall(b, STATUS, id, 2);
        TaskRecord claimedByB = h.row(id);

        callA.fail(transientFailure("late failure from the replaced claim"));
        a.awaitFinished(id, 1);
        assertThat(h.row(id)).isEqualTo(claimedByB);
        assertThat(h.repository.attempts(FencedWrite.RELEASE_FAILURE, id)).isEqualTo(1);
        assertThat(a.metrics().fencedWrites()).isEqualTo(1);

        callB.complete(completed(claimedByB, "{}"));
        b.awaitFinished(id, 1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(h.row(id).control().consecutiveErrorCount()).isZero();
    }

    // 4. fences: phase (a poll superseded by a cancel request)
    @Test
    void phaseFenceRejectsAPollResultOnceCancellationWasRequested() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        GatedCall poll = startCall(a, STATUS, id, 1);
        assertThat(h.service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        TaskRecord superseded = h.row(id);
        assertThat(superseded.lease().isHeld()).isFalse();

        poll.complete(completed(superseded, "{\"late\":true}"));
        a.awaitFinished(id, 1);
        assertThat(h.row(id)).isEqualTo(superseded);
        assertThat(a.metrics().fencedWrites()).isEqualTo(1);
        int renewalsBefore = h.repository.attempts(FencedWrite.RENEW, id);
        h.advance(STEP);
        assertThat(h.repository.attempts(FencedWrite.RENEW, id)).as("the heartbeat stopped").isEqualTo(renewalsBefore);

        a.awaitSettled(id, 1);
        GatedCall cancel = startCall(a, CANCEL, id, 1);
        cancel.complete(snapshot(h.row(id), TaskStatus.CANCELLED));
        a.awaitFinished(id, 2);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    // 5. ownership loss: a rejected renewal cancels the local call, not the remote task
    @Test
    void rejectedRenewalCancelsTheLocalCallAndReleasesOnce() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);
        h.service.requestCancel(id);

        h.advance(STEP);
        a.awaitLoss(id);
        assertThat(call.awaitCancelRequested(WAIT)).isTrue();
        a.awaitSettled(id, 1);

        assertThat(a.events.events(RecordingListener.Type.LOST, id).get(0).detail()).contains("renewal rejected");
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
        assertThat(h.repository.attempts(FencedWrite.APPLY_OUTCOME, id)).isZero();
        assertThat(h.repository.attempts(FencedWrite.RELEASE_FAILURE, id)).isZero();
        assertThat(driver.calls(CANCEL, id)).as("stopping a status request never cancels the remote task").isEmpty();
        assertThat(a.metrics().ownershipLosses()).isEqualTo(1);
        assertThat(a.metrics().slotsInUse()).isZero();
    }

    // 5. ownership loss: a driver that swallows cancellation and returns later saves nothing
    @Test
    void driverThatSwallowsCancellationSavesNoSnapshotAndRecordsNoRetry() throws Exception {
        TestWorker a = h.worker("A", 4);
        List<TaskId> ids = h.workingTasks(2);
        TaskId answers = ids.get(0);
        TaskId fails = ids.get(1);
        driver.onCancelByDefault(GatedCall.CancelBehaviour.SWALLOW);
        a.tick();
        GatedCall answering = driver.awaitCall(STATUS, answers, WAIT);
        GatedCall failing = driver.awaitCall(STATUS, fails, WAIT);
        TaskRecord answersBefore = h.row(answers);
        TaskRecord failsBefore = h.row(fails);
        h.repository.fail(FencedWrite.RENEW, answers, new RepositoryUnavailableException("database gone", null));
        h.repository.fail(FencedWrite.RENEW, fails, new RepositoryUnavailableException("database gone", null));

        h.advance(STEP);
        a.awaitFinished(answers, 1);
        a.awaitFinished(fails, 1);
        assertThat(answering.cancelRequested()).isTrue();
        assertThat(answering.isSettled()).as("the driver swallowed the cancellation").isFalse();

        answering.complete(completed(answersBefore, "{\"late\":true}"));
        failing.fail(transientFailure("late failure"));
        a.awaitSettled(answers, 1);
        a.awaitSettled(fails, 1);

        assertThat(h.repository.attempts(FencedWrite.APPLY_OUTCOME, answers)).isZero();
        assertThat(h.repository.attempts(FencedWrite.RELEASE_FAILURE, fails)).isZero();
        assertThat(h.row(answers).status()).isEqualTo(TaskStatus.WORKING);
        assertThat(h.row(answers).state().resultJson()).isNull();
        assertThat(h.row(fails).control().consecutiveErrorCount())
                .isEqualTo(failsBefore.control().consecutiveErrorCount());
        assertThat(h.row(fails).control().lastPollError()).isNull();
        assertThat(h.row(answers).lease().isHeld()).isFalse();
        assertThat(a.metrics().ownershipLosses()).isEqualTo(2);
    }

    // 6. unavailable renewal
    @Test
    void unavailableRenewalLeadsToOwnershipLossBeforeTheLeaseCanExpire() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);
        TaskRecord claimed = h.row(id);
        h.repository.fail(FencedWrite.RENEW, id, new RepositoryUnavailableException("database unreachable", null));

        h.advance(STEP);
        a.awaitLoss(id);
        a.awaitFinished(id, 1);

        assertThat(h.clock.now()).isBefore(claimed.lease().expiresAt());
        assertThat(a.events.events(RecordingListener.Type.LOST, id).get(0).detail()).contains("renewal failed");
        assertThat(call.awaitCancelRequested(WAIT)).isTrue();
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
        TaskRecord released = h.row(id);
        assertThat(released.lease().isHeld()).isFalse();
        assertThat(released.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(released.control()).isEqualTo(claimed.control());
    }

    // 6. hung renewal
    @Test
    void hungRenewalLeadsToOwnershipLossAtItsDeadlineBeforeTheLeaseCanExpire() throws Exception {
        TestWorker a = h.worker("A", 4);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);
        Instant expiry = h.row(id).lease().expiresAt();
        Gate hung = h.repository.block(FencedWrite.RENEW, id);

        h.advance(STEP);
        assertThat(hung.awaitArrivals(1, WAIT)).isTrue();
        assertThat(a.events.count(RecordingListener.Type.LOST, id)).isZero();
        h.advance(STEP);
        a.awaitLoss(id);
        a.awaitFinished(id, 1);

        assertThat(h.clock.now()).isBefore(expiry);
        assertThat(a.events.events(RecordingListener.Type.LOST, id).get(0).detail()).contains("stalled");
        assertThat(call.awaitCancelRequested(WAIT)).isTrue();
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
        assertThat(h.row(id).lease().isHeld()).isFalse();
        assertThat(a.events.count(RecordingListener.Type.SETTLED, id)).as("the hung renewal is still owned").isZero();

        hung.release();
        a.awaitSettled(id, 1);
        GatedCall byB = startCall(b, STATUS, id, 2);
        byB.complete(completed(h.row(id), "{}"));
        b.awaitFinished(id, 1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    // 7. persistence after remote completion
    @Test
    void slowSnapshotWriteAfterRemoteCompletionIsStillCoveredByTheHeartbeat() throws Exception {
        TestWorker a = h.worker("A", 4);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);
        Gate slowWrite = h.repository.block(FencedWrite.APPLY_OUTCOME, id);
        call.complete(completed(h.row(id), "{\"big\":true}"));
        assertThat(slowWrite.awaitArrivals(1, WAIT)).isTrue();

        for (int i = 1; i <= 4; i++) {
            h.advance(STEP);
            a.awaitRenewals(id, 1 + i); // the verification, then one per third of the lease
            b.tick();
            assertThat(h.row(id).lease().owner()).isEqualTo(a.runtime.workerId());
            assertThat(h.row(id).lease().expiresAt()).isAfter(h.clock.now());
        }
        slowWrite.release();
        a.awaitFinished(id, 1);

        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(h.row(id).state().resultJson()).isEqualTo("{\"big\":true}");
        assertThat(a.metrics().fencedWrites()).isZero();
        assertThat(driver.calls(STATUS, id)).hasSize(1);
        int renewals = h.repository.attempts(FencedWrite.RENEW, id);
        h.advance(STEP);
        h.advance(STEP);
        assertThat(h.repository.attempts(FencedWrite.RENEW, id)).as("renewals end with the last write")
                .isEqualTo(renewals);
    }

    // 8. delayed admission
    @Test
    void claimedRowThatWaitedForAdmissionPastItsExpiryIsNeverSentToTheDriver() throws Exception {
        HoldingExecutor admission = new HoldingExecutor(h.executor);
        TestWorker a = h.worker("A", 4, false, admission);
        TestWorker b = h.worker("B", 4);
        List<TaskId> ids = h.workingTasks(2);
        TaskId late = ids.get(0);
        TaskId alsoLate = ids.get(1);
        admission.hold();
        a.tick();
        assertThat(h.row(late).lease().owner()).isEqualTo(a.runtime.workerId());
        int renewsBefore = h.repository.attempts(FencedWrite.RENEW, late);
        h.advance(LEASE);
        assertThat(h.clock.now()).as("both claims have just expired").isEqualTo(h.row(alsoLate).lease().expiresAt());
        admission.release();
        a.awaitFinished(late, 1);
        a.awaitFinished(alsoLate, 1);

        assertThat(driver.calls()).noneMatch(call -> call.kind() == STATUS);
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, late)).isEqualTo(1);
        assertThat(h.repository.attempts(FencedWrite.RENEW, late)).as("refused on the monotonic clock")
                .isEqualTo(renewsBefore);
        assertThat(h.row(late).lease().isHeld()).isFalse();
        startCall(b, STATUS, late, 1).complete(completed(h.row(late), "{}"));
        b.awaitFinished(late, 1);
        assertThat(h.row(late).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void claimedRowAdmittedBeforeItsExpiryIsVerifiedAndCalled() throws Exception {
        HoldingExecutor admission = new HoldingExecutor(h.executor);
        TestWorker a = h.worker("A", 4, false, admission);
        TaskId id = h.workingTask();
        admission.hold();
        a.tick();
        h.advance(STEP.multipliedBy(2));
        admission.release();
        GatedCall call = driver.awaitCall(STATUS, id, WAIT);
        a.awaitRenewals(id, 1);
        assertThat(h.row(id).lease().expiresAt()).isEqualTo(h.clock.now().plus(LEASE));
        call.complete(completed(h.row(id), "{}"));
        a.awaitFinished(id, 1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    // 9. repeated cancellation: user
    @Test
    void doubleUserCancelMakesOneRemoteCancel() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        assertThat(h.service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(h.service.requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_REQUESTED);
        GatedCall cancel = startCall(a, CANCEL, id, 1);
        TaskRecord claimed = h.row(id);
        assertThat(h.service.requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_REQUESTED);
        assertThat(h.row(id).lease()).as("a repeat never clears a cancel lease").isEqualTo(claimed.lease());
        a.tick();
        assertThat(a.metrics().claims()).isEqualTo(1);
        assertThat(driver.calls(CANCEL, id)).hasSize(1);

        cancel.complete(snapshot(claimed, TaskStatus.CANCELLED));
        a.awaitSettled(id, 1);
        a.tick();
        assertThat(a.metrics().claims()).isEqualTo(1);
        assertThat(driver.calls(CANCEL, id)).hasSize(1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    // 9. repeated cancellation: supervisor
    @Test
    void supervisorCancelledTwiceReleasesEachRecordExactlyOnceAndKeepsTheFirstCause() throws Exception {
        TestWorker a = h.worker("A", 4);
        List<TaskId> ids = h.workingTasks(2);
        a.tick();
        List<GatedCall> calls = new ArrayList<>();
        for (TaskId id : ids) {
            calls.add(driver.awaitCall(STATUS, id, WAIT));
        }
        BatchSupervisor supervisor = a.runtime.supervisor();

        CompletableFuture<Void> first = supervisor.cancel("first: shutdown requested");
        CompletableFuture<Void> second = supervisor.cancel("second: shutdown again");
        first.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        second.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        supervisor.cancel("third").get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(supervisor.cancelCause()).contains("first: shutdown requested");
        for (int i = 0; i < ids.size(); i++) {
            TaskId id = ids.get(i);
            a.awaitSettled(id, 1);
            assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
            assertThat(a.events.events(RecordingListener.Type.LOST, id))
                    .allSatisfy(event -> assertThat(event.detail()).isEqualTo("first: shutdown requested"));
            assertThat(calls.get(i).cancelRequested()).isTrue();
            TaskRecord row = h.row(id);
            assertThat(row.lease().isHeld()).isFalse();
            assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
            assertThat(row.control().lastPollError()).as("shutdown is not a failure").isNull();
        }
        assertThat(a.metrics().ownershipLosses()).isZero();
    }

    // 10. late cleanup
    @Test
    void uncooperativeCallKeepsItsSlotAfterDrainAndIsNotReclaimedHereUntilItSettles() throws Exception {
        TestWorker a = h.worker("A", 2);
        TaskId id = h.workingTask();
        driver.onCancel(STATUS, id, GatedCall.CancelBehaviour.SWALLOW);
        GatedCall call = startCall(a, STATUS, id, 1);
        h.repository.fail(FencedWrite.RENEW, id, new RepositoryUnavailableException("database unreachable", null));
        h.advance(STEP);
        a.awaitFinished(id, 1);
        h.repository.heal(FencedWrite.RENEW, id);
        assertThat(call.cancelRequested()).isTrue();
        assertThat(call.isSettled()).isFalse();

        h.advance(DRAIN);
        a.events.await(RecordingListener.Type.BACKGROUND, id, 1);
        assertThat(a.metrics().backgroundCleanups()).isEqualTo(1);
        assertThat(a.metrics().slotsInUse()).isEqualTo(1);
        assertThat(h.row(id).lease().isHeld()).isFalse();
        long claimsBefore = a.metrics().claims();
        a.tick();
        assertThat(a.metrics().claims()).as("excluded from this worker's claims").isEqualTo(claimsBefore);
        assertThat(driver.calls(STATUS, id)).hasSize(1);
        assertThat(h.row(id).lease().isHeld()).isFalse();

        call.complete(completed(h.row(id), "{\"late\":true}"));
        a.awaitSettled(id, 1);
        assertThat(a.metrics().slotsInUse()).isZero();
        assertThat(a.runtime.supervisor().backgroundCount()).isZero();
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
        assertThat(h.repository.attempts(FencedWrite.APPLY_OUTCOME, id)).isZero();
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.WORKING);

        a.tick();
        driver.awaitCall(STATUS, id, 2, WAIT);
    }

    // 11. spare-capacity progress
    @Test
    void otherTasksProceedWhileOneSlotDrains() throws Exception {
        TestWorker a = h.worker("A", 2);
        List<TaskId> ids = h.workingTasks(3);
        TaskId draining = ids.get(0);
        driver.onCancel(STATUS, draining, GatedCall.CancelBehaviour.SWALLOW);
        a.tick();
        GatedCall stuck = driver.awaitCall(STATUS, draining, WAIT);
        GatedCall second = driver.awaitCall(STATUS, ids.get(1), WAIT);
        h.repository.fail(FencedWrite.RENEW, draining, new RepositoryUnavailableException("db", null));
        h.advance(STEP);
        a.awaitFinished(draining, 1);
        a.awaitRenewals(ids.get(1), 1);
        h.repository.heal(FencedWrite.RENEW, draining);

        second.complete(completed(h.row(ids.get(1)), "{}"));
        a.awaitSettled(ids.get(1), 1);
        GatedCall third = startCall(a, STATUS, ids.get(2), 1);
        third.complete(completed(h.row(ids.get(2)), "{}"));
        a.awaitFinished(ids.get(2), 1);

        assertThat(h.row(ids.get(1)).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(h.row(ids.get(2)).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(stuck.isSettled()).isFalse();
        assertThat(driver.calls(STATUS, draining)).hasSize(1);
    }

    // 11. every slot held by uncooperative cleanup
    @Test
    void withEverySlotHeldByUncooperativeCleanupNewCallsWait() throws Exception {
        TestWorker a = h.worker("A", 2);
        List<TaskId> ids = h.workingTasks(3);
        driver.onCancelByDefault(GatedCall.CancelBehaviour.SWALLOW);
        a.tick();
        List<GatedCall> stuck = new ArrayList<>();
        for (TaskId id : ids.subList(0, 2)) {
            stuck.add(driver.awaitCall(STATUS, id, WAIT));
            h.repository.fail(FencedWrite.RENEW, id, new RepositoryUnavailableException("db", null));
        }
        h.advance(STEP);
        for (TaskId id : ids.subList(0, 2)) {
            a.awaitFinished(id, 1);
            h.repository.heal(FencedWrite.RENEW, id);
        }
        h.advance(DRAIN);
        long claimsBefore = a.metrics().claims();
        a.tick();
        assertThat(a.metrics().claims()).as("no claim while every slot is held").isEqualTo(claimsBefore);
        assertThat(a.metrics().slotsInUse()).isEqualTo(2);
        assertThat(driver.calls(STATUS, ids.get(2))).isEmpty();
        assertThat(h.row(ids.get(2)).lease().isHeld()).isFalse();
        assertThat(driver.calls()).filteredOn(call -> call.kind() == STATUS).hasSize(2);

        stuck.get(0).complete(snapshot(h.row(ids.get(0)), TaskStatus.WORKING));
        a.awaitSettled(ids.get(0), 1);
        assertThat(a.metrics().slotsInUse()).isEqualTo(1);
        a.tick();
        assertThat(a.metrics().claims()).isEqualTo(claimsBefore + 1);
        assertThat(awaitStatusCalls(3)).hasSize(3);
        assertThat(a.metrics().slotsInUse()).isEqualTo(2);
    }

    // 12. concurrent scan admission
    @Test
    void concurrentScansNeverAdmitMoreCallsThanFreeSlots() throws Exception {
        TestWorker a = h.worker("A", 3);
        h.workingTasks(6);
        Gate claims = h.repository.blockClaims(dev.mcptasks.domain.ClaimPhase.POLL);
        ExecutorService tickers = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            CountDownLatch threeDone = new CountDownLatch(3);
            List<CompletableFuture<Void>> ticks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ticks.add(CompletableFuture.runAsync(() -> {
                    await(start);
                    a.tick();
                    threeDone.countDown();
                }, tickers));
            }
            start.countDown();
            assertThat(claims.awaitArrivals(1, WAIT)).isTrue();
            // every other scan found no free slot and ended without claiming
            assertThat(threeDone.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(claims.arrivals()).isEqualTo(1);
            claims.release();
            CompletableFuture.allOf(ticks.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            tickers.shutdownNow();
        }
        assertThat(a.metrics().claims()).isEqualTo(3);
        assertThat(a.metrics().slotsInUse()).isEqualTo(3);
        awaitStatusCalls(3);
        assertThat(driver.calls()).filteredOn(call -> call.kind() == STATUS).hasSize(3);
    }

    @Test
    void repeatedConcurrentTicksAdmitExactlyTheFreeSlots() throws Exception {
        TestWorker a = h.worker("A", 3);
        h.workingTasks(8);
        ExecutorService tickers = Executors.newFixedThreadPool(6);
        try {
            for (int round = 1; round <= 4; round++) {
                CountDownLatch start = new CountDownLatch(1);
                List<CompletableFuture<Void>> ticks = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    ticks.add(CompletableFuture.runAsync(() -> {
                        await(start);
                        a.tick();
                    }, tickers));
                }
                start.countDown();
                CompletableFuture.allOf(ticks.toArray(CompletableFuture[]::new))
                        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(a.metrics().slotsInUse()).isEqualTo(3);
                List<GatedCall> open = awaitStatusCalls(3 * round);
                assertThat(driver.calls()).filteredOn(call -> call.kind() == STATUS).hasSize(3 * round);
                for (GatedCall call : open.subList(3 * (round - 1), 3 * round)) {
                    call.complete(snapshot(h.row(call.task()), TaskStatus.WORKING));
                    a.events.await(RecordingListener.Type.SETTLED, call.task(),
                            (int) driver.calls(STATUS, call.task()).size());
                }
                assertThat(a.metrics().slotsInUse()).isZero();
                h.advance(POLL);
            }
        } finally {
            tickers.shutdownNow();
        }
    }

    // 13. backward clock step
    @Test
    void backwardClockStepDuringRenewalNeverShortensTheStoredExpiry() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        GatedCall call = startCall(a, STATUS, id, 1);
        Instant stored = h.row(id).lease().expiresAt();

        h.clock.stepWallClock(Duration.ofMinutes(-10));
        for (int i = 1; i <= 4; i++) {
            h.advance(STEP);
            a.awaitRenewals(id, 1 + i); // the verification, then one per third of the lease
            assertThat(h.row(id).lease().expiresAt()).isEqualTo(stored);
        }
        assertThat(a.metrics().ownershipLosses()).isZero();

        call.complete(completed(h.row(id), "{}"));
        a.awaitFinished(id, 1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    // the loop: first tick at start-up, then every tick interval; stop drains, then releases what remains
    @Test
    void startRunsTheFirstTickAtOnceAndStopReleasesWhatRemainsAfterTheDrain() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        a.runtime.start();
        GatedCall first = driver.awaitCall(STATUS, id, WAIT);
        assertThat(h.service.workers()).anySatisfy(w -> assertThat(w.id()).isEqualTo(a.runtime.workerId()));
        first.complete(snapshot(h.row(id), TaskStatus.WORKING));
        a.awaitFinished(id, 1);

        h.advance(POLL);
        GatedCall second = driver.awaitCall(STATUS, id, 2, WAIT);

        CompletableFuture<Void> stopped = a.runtime.stop();
        assertThat(stopped).isNotDone();
        h.advance(DRAIN);
        stopped.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(second.cancelRequested()).isTrue();
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
        TaskRecord row = h.row(id);
        assertThat(row.lease().isHeld()).isFalse();
        assertThat(row.control().lastPollError()).isNull();
        assertThat(h.service.workers()).noneSatisfy(w -> assertThat(w.id()).isEqualTo(a.runtime.workerId()));
        h.advance(Duration.ofSeconds(5));
        assertThat(driver.calls(STATUS, id)).as("no tick after stop").hasSize(2);
    }

    private GatedCall startCall(TestWorker worker, GatedDriver.Kind kind, TaskId id, int n) throws Exception {
        worker.tick();
        GatedCall call = driver.awaitCall(kind, id, n, WAIT);
        return call;
    }

    private List<GatedCall> awaitStatusCalls(int count) throws Exception {
        return driver.awaitCalls(STATUS, count, WAIT);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
