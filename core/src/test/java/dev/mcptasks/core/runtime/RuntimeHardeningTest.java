package dev.mcptasks.core.runtime;

import static dev.mcptasks.core.runtime.LifecycleHarness.LEASE;
import static dev.mcptasks.core.runtime.LifecycleHarness.POLL;
import static dev.mcptasks.core.runtime.LifecycleHarness.SERVER;
import static dev.mcptasks.core.runtime.LifecycleHarness.STEP;
import static dev.mcptasks.core.runtime.LifecycleHarness.completed;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.CANCEL;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.STATUS;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.SUBMIT;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.driver.GatedCall;
import dev.mcptasks.testkit.driver.GatedDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * Hardening of the control loop (issue 8) against the production stores, with the manual clock, gated calls and
 * the fault-injecting repository: unrecorded creates, store blips on the last write, refused intermediate writes,
 * launch failures and a worker resumed after its lease lapsed.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.mcptasks.core.runtime.TaskLeaseLifecycleTest#backends")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RuntimeHardeningTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Parameter
    LifecycleHarness.Backend backend;

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

    @Test
    void cancelAfterAnUnrecordedCreateFailsAsSubmitOutcomeUnknownAndKeepsTheCancelRequest() throws Exception {
        TestWorker a = h.worker("A", 4, true, h.executor);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.service.submit(SERVER, "long_job", "{}").id();
        a.tick();
        GatedCall create = driver.awaitCall(SUBMIT, id, 1, WAIT);
        assertThat(h.row(id).control().submitAttemptedAt()).isNotNull();
        a.die(); // the create reached the server; its answer is never stored
        h.advance(LEASE);

        assertThat(h.service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger scanner = (Logger) LoggerFactory.getLogger(ClaimScanner.class);
        Level level = scanner.getLevel();
        scanner.setLevel(Level.DEBUG);
        log.start();
        scanner.addAppender(log);
        try {
            b.tick();
            b.awaitFinished(id, 1);
        } finally {
            scanner.detachAppender(log);
            scanner.setLevel(level);
        }
        assertThat(log.list).filteredOn(event -> event.getFormattedMessage().contains("taking over"))
                .as("the expired lease was the dead worker's submit claim; the operator's INFO line is the takeover"
                        + " event on dev.mcptasks.events, so this one is DEBUG")
                .singleElement()
                .satisfies(event -> assertThat(event.getLevel()).isEqualTo(Level.DEBUG))
                .extracting(ILoggingEvent::getFormattedMessage)
                .isEqualTo("task " + id + ": claimed for cancel, taking over an expired submit lease (its owner died"
                        + " or stalled)");

        TaskRecord row = h.row(id);
        assertThat(row.status()).as("the server may run the task: it was never cancelled remotely")
                .isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN);
        assertThat(row.state().error()).contains("cancel");
        assertThat(row.control().cancelRequestedAt()).as("the user's request stays visible").isNotNull();
        assertThat(row.lease().isHeld()).isFalse();
        assertThat(driver.calls(CANCEL, id)).isEmpty();
        assertThat(driver.calls(SUBMIT, id)).hasSize(1);
        create.complete(new SubmitResult(RemoteTaskSnapshot.of("remote-late", TaskStatus.WORKING), "2025-11-25",
                false));
    }

    @Test
    void failedSubmitWriteIsRetriedWhileTheLeaseIsConfirmedSoTheCreatedTaskIsKept() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.service.submit(SERVER, "long_job", "{}").id();
        h.repository.fail(FencedWrite.APPLY_SUBMITTED, id, new RepositoryUnavailableException("connection reset",
                null));
        a.tick();
        GatedCall create = driver.awaitCall(SUBMIT, id, 1, WAIT);
        create.complete(new SubmitResult(RemoteTaskSnapshot.of("remote-kept", TaskStatus.WORKING), "2025-11-25",
                false));

        int retries = 1;
        Duration waited = retry(a, id, retries);
        assertThat(h.row(id).lease().owner()).as("the claim is kept during the retries")
                .isEqualTo(a.runtime.workerId());
        while (waited.compareTo(STEP) <= 0) { // the heartbeat renews while the write is retried
            waited = waited.plus(retry(a, id, ++retries));
        }
        a.awaitRenewals(id, 1);
        a.events.await(RecordingListener.Type.WRITE_RETRY, id, retries + 1);
        assertThat(h.row(id).lease().expiresAt()).isAfter(h.clock.now().plus(LEASE).minus(STEP));
        h.repository.heal(FencedWrite.APPLY_SUBMITTED, id);
        retry(a, id, retries + 1);
        a.awaitFinished(id, 1);

        TaskRecord row = h.row(id);
        assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row.state().remoteTaskId()).isEqualTo("remote-kept");
        assertThat(row.lease().isHeld()).isFalse();
        assertThat(h.repository.attempts(FencedWrite.APPLY_SUBMITTED, id)).isEqualTo(retries + 2);
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isZero();
        assertThat(a.metrics().ownershipLosses()).isZero();
    }

    @Test
    void failedPollAndCancelWritesAreRetriedUntilStored() throws Exception {
        TestWorker a = h.worker("A", 4);
        List<TaskId> ids = h.workingTasks(2);
        TaskId polled = ids.get(0);
        TaskId cancelled = ids.get(1);
        h.service.requestCancel(cancelled);
        for (TaskId id : ids) {
            h.repository.fail(FencedWrite.APPLY_OUTCOME, id, new RepositoryUnavailableException("busy", null));
        }
        a.tick();
        driver.awaitCall(STATUS, polled, 1, WAIT).complete(completed(h.row(polled), "{\"n\":1}"));
        driver.awaitCall(CANCEL, cancelled, 1, WAIT).complete(LifecycleHarness.snapshot(h.row(cancelled),
                TaskStatus.CANCELLED));
        a.events.await(RecordingListener.Type.WRITE_RETRY, polled, 1);
        a.events.await(RecordingListener.Type.WRITE_RETRY, cancelled, 1);
        ids.forEach(id -> h.repository.heal(FencedWrite.APPLY_OUTCOME, id));
        h.advance(retryDelay(a, polled, 1).plus(retryDelay(a, cancelled, 1)));
        a.awaitFinished(polled, 1);
        a.awaitFinished(cancelled, 1);

        assertThat(h.row(polled).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(h.row(polled).state().resultJson()).isEqualTo("{\"n\":1}");
        assertThat(h.row(cancelled).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    @Test
    void finalWriteRetriesStopBeforeTheConfirmedLeaseRunsOutAndReleaseTheClaim() throws Exception {
        TestWorker a = h.worker("A", 4);
        TaskId id = h.workingTask();
        TaskRecord before = h.row(id);
        h.repository.fail(FencedWrite.APPLY_OUTCOME, id, new RepositoryUnavailableException("down", null));
        Instant started = h.clock.now();
        a.tick();
        driver.awaitCall(STATUS, id, 1, WAIT).complete(completed(h.row(id), "{}"));
        Instant firstFailure = h.clock.now();
        int retries = 1;
        while (true) {
            a.events.await(RecordingListener.Type.WRITE_RETRY, id, retries);
            h.advance(retryDelay(a, id, retries));
            // the store answers renewals in real time: let each one land before time passes its deadline
            long renewalsDue = 1 + Duration.between(started, h.clock.now()).toMillis() / STEP.toMillis();
            a.awaitRenewals(id, (int) renewalsDue);
            int seen = retries;
            a.events.awaitCondition("a retry or the end of " + id,
                    e -> e.count(RecordingListener.Type.FINISHED, id) > 0
                            || e.count(RecordingListener.Type.WRITE_RETRY, id) > seen);
            if (a.events.count(RecordingListener.Type.FINISHED, id) > 0) {
                break;
            }
            retries++;
        }
        a.awaitFinished(id, 1);

        assertThat(h.clock.now()).as("gave up within one lease of the first failure")
                .isBefore(firstFailure.plus(LEASE));
        assertThat(retries).isGreaterThan(3);
        a.awaitRenewals(id, 3); // the verification (a poll claim), then renewals at one and two thirds of the lease
        assertThat(h.repository.attempts(FencedWrite.RELEASE_CANCELLED, id)).isEqualTo(1);
        TaskRecord row = h.row(id);
        assertThat(row.lease().isHeld()).isFalse();
        assertThat(row.status()).isEqualTo(before.status());
        assertThat(row.control().consecutiveErrorCount()).isEqualTo(before.control().consecutiveErrorCount());
    }

    @Test
    void launchFailureOfOneClaimedRowNeverStopsItsSiblingsAndReleasesTheRow() throws Exception {
        AtomicBoolean rejectNext = new AtomicBoolean();
        Executor flaky = task -> {
            if (rejectNext.compareAndSet(true, false)) {
                throw new RejectedExecutionException("no thread for this one");
            }
            h.executor.execute(task);
        };
        TestWorker a = h.worker("A", 4, false, flaky);
        List<TaskId> ids = h.workingTasks(2);
        rejectNext.set(true);
        a.tick();

        List<GatedCall> calls = driver.awaitCalls(STATUS, 1, WAIT);
        TaskId launched = calls.get(0).task();
        TaskId rejected = ids.get(0).equals(launched) ? ids.get(1) : ids.get(0);
        a.awaitFinished(rejected, 1);
        a.awaitSettled(rejected, 1);
        assertThat(h.row(rejected).lease().isHeld()).as("the row that could not start is released").isFalse();
        assertThat(a.runtime.supervisor().unsettled()).doesNotContain(rejected);
        calls.get(0).complete(completed(h.row(launched), "{}"));
        a.awaitSettled(launched, 1);
        assertThat(h.row(launched).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(a.metrics().slotsInUse()).isZero();

        a.tick();
        driver.awaitCall(STATUS, rejected, 1, WAIT).complete(completed(h.row(rejected), "{}"));
        a.awaitSettled(rejected, 2);
        assertThat(h.row(rejected).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void resumedWorkerWhoseConfirmedLeaseLapsedSendsNothing() throws Exception {
        HoldingExecutor paused = new HoldingExecutor(h.executor);
        TestWorker a = h.worker("A", 4, true, paused);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        // A's claim waits for admission past the first renewal interval, so it is verified before its driver call;
        // the process stops right after that verification
        paused.hold();
        a.tick();
        h.advance(STEP);
        a.events.beforeNextRenewed(id, paused::hold);
        paused.release();
        a.awaitRenewals(id, 1);
        h.advance(LEASE.plus(POLL)); // SIGSTOP past the lease: the store's and A's monotonic clocks move on
        b.tick();
        GatedCall byB = driver.awaitCall(STATUS, id, 1, WAIT);

        paused.release(); // SIGCONT
        a.awaitFinished(id, 1);
        assertThat(driver.calls(STATUS, id)).as("the resumed worker sent no step").hasSize(1);
        assertThat(h.row(id).lease().owner()).isEqualTo(b.runtime.workerId());
        byB.complete(completed(h.row(id), "{}"));
        b.awaitFinished(id, 1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void resumedWorkerWhoseLeaseLapsedDuringItsCallIsRefusedTheNextRequestAndWritesNothing() throws Exception {
        HoldingExecutor paused = new HoldingExecutor(h.executor);
        TestWorker a = h.worker("A", 4, true, paused);
        TestWorker b = h.worker("B", 4);
        TaskId id = h.workingTask();
        a.tick();
        GatedCall byA = driver.awaitCall(STATUS, id, 1, WAIT);
        assertThat(byA.permit().maySend()).as("the lease is confirmed while the first step runs").isTrue();

        // the first step is on its way when the process stops; it resumes after B took the row over
        paused.hold();
        h.advance(LEASE.plus(POLL));
        b.tick();
        GatedCall byB = driver.awaitCall(STATUS, id, 2, WAIT);
        assertThat(byA.permit().maySend()).as("the confirmed lease lapsed: no second step may be sent").isFalse();

        // SIGCONT: the first step's answer arrives, and the driver, refused its next request, fails the operation
        byA.fail(new RemoteCallException(RemoteFailure.PERMIT_REFUSED, "the lease lapsed before tasks/result"));
        paused.release();
        a.awaitFinished(id, 1);
        assertThat(a.metrics().ownershipLosses()).isEqualTo(1);
        assertThat(driver.calls(STATUS, id)).hasSize(2);
        TaskRecord row = h.row(id);
        assertThat(row.lease().owner()).isEqualTo(b.runtime.workerId());
        assertThat(row.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row.control().consecutiveErrorCount()).as("nothing written by the resumed worker").isZero();
        assertThat(row.control().lastPollError()).isNull();
        byB.complete(completed(row, "{}"));
        b.awaitFinished(id, 1);
        assertThat(h.row(id).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    /** Waits for the {@code n}-th retry of the last write of {@code id}, then moves time to it; returns its delay. */
    private Duration retry(TestWorker a, TaskId id, int n) {
        a.events.await(RecordingListener.Type.WRITE_RETRY, id, n);
        Duration delay = retryDelay(a, id, n);
        h.advance(delay);
        return delay;
    }

    private static Duration retryDelay(TestWorker a, TaskId id, int n) {
        return Duration.parse(a.events.events(RecordingListener.Type.WRITE_RETRY, id).get(n - 1).detail());
    }
}
