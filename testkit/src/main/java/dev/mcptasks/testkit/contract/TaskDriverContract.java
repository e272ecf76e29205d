package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the worker runtime needs of every {@link TaskDriver}: a stable name to be chosen by, futures in place of
 * thrown exceptions, failures classified by a {@link RemoteCallException} (the runtime's next step depends on the
 * {@link RemoteFailure}), a created task that can be read and cancelled under its remote id, a refused
 * {@link SendPermit} that stops an operation with {@link RemoteFailure#PERMIT_REFUSED}, and cancellable futures.
 * Extend it, implement {@link #createDriver} and {@link #acceptedCall} (and {@link #refusedCall} when the driver
 * refuses some calls); the driver talks to whatever the subclass set up (a reference server, a scripted peer, none).
 */
public abstract class TaskDriverContract {
    /** How long a call of the driver may take before the contract counts it as hung. */
    protected static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** A permit that refuses every request, as a worker paused past its lease has. */
    protected static final SendPermit REFUSING = new SendPermit() {
        @Override
        public boolean maySend() {
            return false;
        }

        @Override
        public CompletableFuture<Boolean> confirm() {
            return CompletableFuture.completedFuture(false);
        }
    };

    private final AtomicInteger taskNumber = new AtomicInteger();
    protected TaskDriver driver;

    /** A fresh driver for one test, ready to talk to its server. */
    protected abstract TaskDriver createDriver();

    /** Releases what {@link #createDriver} opened (sessions, servers); nothing by default. */
    protected void closeDriver() {}

    /** A create request this driver accepts: it creates a task or finishes at once. */
    protected abstract SubmitCall acceptedCall(TaskId id);

    /** A create request this driver refuses (an unknown tool, bad arguments), or null when it accepts every call. */
    protected SubmitCall refusedCall(TaskId id) {
        return null;
    }

    /** A task the driver's server does not know, under the server and tool of an accepted call. */
    protected RemoteTaskRef unknownTask(TaskId id) {
        SubmitCall call = acceptedCall(id);
        return new RemoteTaskRef(id, call.serverName(), call.toolName(), "no-such-task-" + id.value());
    }

    @BeforeEach
    void openDriver() {
        driver = createDriver();
    }

    @AfterEach
    void releaseDriver() {
        closeDriver();
    }

    /** A task id of its own for each call of a test. */
    protected TaskId nextTaskId() {
        return TaskId.of("contract-" + taskNumber.incrementAndGet());
    }

    @Test
    void itsNameIsNonBlankAndStable() {
        String name = driver.name();

        assertThat(name).isNotBlank();
        assertThat(driver.name()).as("the registry finds a driver by the name it gave first").isEqualTo(name);
    }

    @Test
    void anAcceptedCallAnswersAResultTheRuntimeCanStore() throws Exception {
        SubmitResult result = await(driver.submit(acceptedCall(nextTaskId()), SendPermit.ALWAYS));

        assertThat(result).isNotNull();
        assertThat(result.snapshot().status()).isNotNull();
        if (result.createdTask()) {
            assertThat(result.snapshot().remoteTaskId()).as("the id every later call names").isNotBlank();
        } else {
            assertThat(result.snapshot().status().isTerminal() || result.isInputRound())
                    .as("without a remote task the call finished at once or asks for input").isTrue();
        }
    }

    @Test
    void aRefusedCallFailsItsFutureAsRefusedWithoutThrowing() {
        SubmitCall refused = refusedCall(nextTaskId());
        assumeTrue(refused != null, "this driver accepts every call");

        CompletableFuture<SubmitResult> submit = start(() -> driver.submit(refused, SendPermit.ALWAYS));

        assertThat(failureOf(submit).failure()).as("a refused submit is terminal, never retried")
                .isEqualTo(RemoteFailure.REFUSED);
    }

    @Test
    void aCreatedTaskIsReadUnderItsRemoteId() throws Exception {
        RemoteTaskRef created = createdRunningTask();

        RemoteTaskSnapshot status = await(driver.status(created, SendPermit.ALWAYS));

        assertThat(status.status()).isNotNull();
        assertThat(status.remoteTaskId()).isIn(null, created.remoteTaskId());
    }

    @Test
    void aCancelOfACreatedTaskAnswersWhatTheServerThenReportsOrIsUnsupported() {
        RemoteTaskRef created = createdRunningTask();

        CompletableFuture<RemoteTaskSnapshot> cancel = start(() -> driver.cancel(created, SendPermit.ALWAYS));

        RemoteTaskSnapshot answered = settle(cancel, RemoteFailure.UNSUPPORTED);
        if (answered != null) {
            assertThat(answered.status()).isNotNull();
        }
    }

    @Test
    void aTaskTheServerDoesNotKnowIsReportedLost() {
        RemoteTaskRef unknown = unknownTask(nextTaskId());

        CompletableFuture<RemoteTaskSnapshot> status = start(() -> driver.status(unknown, SendPermit.ALWAYS));

        assertThat(failureOf(status).failure()).as("the runtime ends a task remote_task_lost on this alone")
                .isEqualTo(RemoteFailure.TASK_LOST);
    }

    @Test
    void aRefusedPermitEndsASubmitAsPermitRefusedUnlessItNeededNoFurtherRequest() {
        CompletableFuture<SubmitResult> submit = start(() -> driver.submit(acceptedCall(nextTaskId()), REFUSING));

        settle(submit, RemoteFailure.PERMIT_REFUSED);
    }

    @Test
    void answersAreDeliveredOrRefusedWithAClassifiedFailure() {
        RemoteTaskRef task = createdTaskOr(unknownTask(nextTaskId()));

        CompletableFuture<Void> answer = start(() -> driver.answer(task, "{}", SendPermit.ALWAYS));

        try {
            answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).as("an answer the driver cannot deliver fails classified")
                    .isInstanceOf(RemoteCallException.class);
        } catch (Exception e) {
            throw new AssertionError("the answer did not settle within " + TIMEOUT, e);
        }
    }

    @Test
    void cancellingACallsFutureStopsOnlyThatCallAndTheDriverGoesOn() throws Exception {
        CompletableFuture<SubmitResult> first = start(() -> driver.submit(acceptedCall(nextTaskId()),
                SendPermit.ALWAYS));

        assertThatCode(() -> first.cancel(true)).doesNotThrowAnyException();

        assertThat(await(driver.submit(acceptedCall(nextTaskId()), SendPermit.ALWAYS))).isNotNull();
    }

    /** A task the driver created and that is not finished yet; skips the test for a driver that creates none. */
    protected RemoteTaskRef createdRunningTask() {
        SubmitCall call = acceptedCall(nextTaskId());
        SubmitResult result = awaitUnchecked(driver.submit(call, SendPermit.ALWAYS));
        assumeTrue(result.createdTask() && !result.snapshot().status().isTerminal(),
                "this driver's accepted call creates no running remote task");
        return refOf(call, result);
    }

    private RemoteTaskRef createdTaskOr(RemoteTaskRef fallback) {
        SubmitCall call = acceptedCall(nextTaskId());
        SubmitResult result = awaitUnchecked(driver.submit(call, SendPermit.ALWAYS));
        return result.createdTask() ? refOf(call, result) : fallback;
    }

    /** The reference the runtime stores for a created task. */
    protected static RemoteTaskRef refOf(SubmitCall call, SubmitResult created) {
        return new RemoteTaskRef(call.taskId(), call.serverName(), call.toolName(),
                created.snapshot().remoteTaskId(), created.protocolVersion(), created.endpointSession());
    }

    /** Calls the driver, which must answer a future and never throw. */
    protected static <T> CompletableFuture<T> start(java.util.function.Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            throw new AssertionError("the driver threw instead of failing its future", e);
        }
        assertThat(future).as("the driver's future").isNotNull();
        return future;
    }

    protected static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static <T> T awaitUnchecked(CompletableFuture<T> future) {
        try {
            return await(future);
        } catch (Exception e) {
            throw new AssertionError("the driver's call did not succeed", e);
        }
    }

    /** The classified failure a future ended with; fails the test if it succeeded or failed otherwise. */
    protected static RemoteCallException failureOf(CompletableFuture<?> future) {
        try {
            Object value = await(future);
            return fail("expected a failure, the call answered " + value);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).as("a driver's failure is classified").isInstanceOf(RemoteCallException.class);
            return (RemoteCallException) e.getCause();
        } catch (Exception e) {
            throw new AssertionError("the call did not settle within " + TIMEOUT, e);
        }
    }

    /** The value of a future, or null when it failed with {@code allowed}; any other failure fails the test. */
    private static <T> T settle(CompletableFuture<T> future, RemoteFailure allowed) {
        try {
            return await(future);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(RemoteCallException.class);
            assertThat(((RemoteCallException) e.getCause()).failure()).isEqualTo(allowed);
            return null;
        } catch (Exception e) {
            throw new AssertionError("the call did not settle within " + TIMEOUT, e);
        }
    }
}
