package dev.mcptasks.core.runtime;

import static dev.mcptasks.testkit.driver.GatedDriver.Kind.CANCEL;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.SUBMIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedCall;
import dev.mcptasks.testkit.driver.GatedDriver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A user's cancel request reaches the worker whose direct call is in flight (the submit claim holds the row, so no
 * cancel claim can): the local call is cancelled and the task ends {@code cancelled} under the submit claim; a call
 * that returns first keeps its result; a task create in flight is never cancelled so. Fake drivers, manual clock.
 */
class DirectCallCancelTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final GatedDriver gated = new GatedDriver("gated", clock);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("direct", "direct", null, SubmitPolicy.AT_MOST_ONCE),
            new ServerProfile("tasks", "gated", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final RecordingListener events = new RecordingListener();
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), LifecycleHarness.settings(4), repository,
            new TaskDriverRegistry(List.of(gated, new DirectCallingDriver(gated)), servers), servers, clock,
            () -> 0.5, executor, events);

    @AfterEach
    void shutdown() {
        gated.failAllOpen(new RemoteCallException(RemoteFailure.TRANSIENT, "test over"));
        executor.shutdownNow();
    }

    @Test
    void aCancelRequestStopsTheDirectCallInFlightAndEndsTheTaskCancelledOnceTheCallSettled() throws Exception {
        gated.onCancelByDefault(GatedCall.CancelBehaviour.SWALLOW);
        TaskId id = service.submit("direct", "slow", "{}").id();
        worker.tick();
        GatedCall call = gated.awaitCall(SUBMIT, id, WAIT);

        assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        worker.tick();

        assertThat(call.awaitCancelRequested(WAIT)).as("the local call is cancelled").isTrue();
        assertThat(row(id).status()).as("nothing written before the call let go").isEqualTo(TaskStatus.PENDING);
        assertThat(row(id).lease().phase()).isEqualTo(ClaimPhase.SUBMIT);
        call.fail(new java.util.concurrent.CancellationException("let go"));
        events.await(RecordingListener.Type.SETTLED, id, 1);

        TaskRecord row = row(id);
        assertThat(row.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(row.state().statusMessage()).isEqualTo(SubmitHandler.CANCELLED_IN_FLIGHT);
        assertThat(row.lease().isHeld()).isFalse();
        assertThat(row.outbox().eventVersion()).as("the user hears of it").isEqualTo(1);
        worker.tick();
        assertThat(gated.calls(CANCEL, id)).as("nothing remote to cancel").isEmpty();
        assertThat(gated.calls(SUBMIT, id)).hasSize(1);
    }

    @Test
    void aDirectCallThatReturnsFirstKeepsItsResult() throws Exception {
        TaskId id = service.submit("direct", "slow", "{}").id();
        worker.tick();
        GatedCall call = gated.awaitCall(SUBMIT, id, WAIT);

        service.requestCancel(id);
        call.complete(done());
        events.await(RecordingListener.Type.SETTLED, id, 1);
        worker.tick();

        TaskRecord row = row(id);
        assertThat(row.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(row.state().resultJson()).isEqualTo("{\"v\":1}");
        assertThat(call.cancelRequested()).isFalse();
        assertThat(gated.calls(CANCEL, id)).isEmpty();
    }

    @Test
    void aResultThatArrivesWhileTheCallIsBeingCancelledWins() throws Exception {
        gated.onCancelByDefault(GatedCall.CancelBehaviour.SWALLOW);
        TaskId id = service.submit("direct", "slow", "{}").id();
        worker.tick();
        GatedCall call = gated.awaitCall(SUBMIT, id, WAIT);

        service.requestCancel(id);
        worker.tick();
        assertThat(call.awaitCancelRequested(WAIT)).isTrue();
        call.complete(done());
        events.await(RecordingListener.Type.SETTLED, id, 1);

        assertThat(row(id).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(row(id).state().resultJson()).isEqualTo("{\"v\":1}");
    }

    @Test
    void aTaskCreateInFlightIsNotCancelledLocallyButCancelledRemotelyOnceItsIdIsStored() throws Exception {
        TaskId id = service.submit("tasks", "job", "{}").id();
        worker.tick();
        GatedCall create = gated.awaitCall(SUBMIT, id, WAIT);

        service.requestCancel(id);
        worker.tick();
        assertThat(create.cancelRequested()).as("the server may have created the task").isFalse();

        create.complete(new SubmitResult(RemoteTaskSnapshot.of("r-1", TaskStatus.WORKING), "2025-11-25", false));
        events.await(RecordingListener.Type.SETTLED, id, 1);
        gated.script(CANCEL, id, RemoteTaskSnapshot.of("r-1", TaskStatus.CANCELLED));
        worker.tick();
        events.await(RecordingListener.Type.SETTLED, id, 2);

        assertThat(row(id).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(gated.calls(CANCEL, id)).hasSize(1);
    }

    @Test
    void aDirectCallWithoutACancelRequestIsLeftAloneByEveryPass() throws Exception {
        TaskId id = service.submit("direct", "slow", "{}").id();
        worker.tick();
        GatedCall call = gated.awaitCall(SUBMIT, id, WAIT);
        TaskId other = service.submit("direct", "slow", "{}").id();
        service.requestCancel(other);

        worker.tick();
        worker.tick();

        assertThat(call.cancelRequested()).isFalse();
        call.complete(done());
        events.await(RecordingListener.Type.SETTLED, id, 1);
        assertThat(row(id).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    private static SubmitResult done() {
        return new SubmitResult(RemoteTaskSnapshot.of(null, TaskStatus.COMPLETED).withResult("{\"v\":1}"),
                "2025-11-25", false);
    }

    private TaskRecord row(TaskId id) {
        return repository.find(id).orElseThrow();
    }

    /** Runs every submit as a direct call: tells the observer, then holds the call open on the gated driver. */
    private static final class DirectCallingDriver implements TaskDriver {
        private final GatedDriver gated;

        DirectCallingDriver(GatedDriver gated) {
            this.gated = gated;
        }

        @Override
        public String name() {
            return "direct";
        }

        @Override
        public CompletableFuture<SubmitResult> submit(SubmitCall call) {
            return submit(call, SendPermit.ALWAYS, SubmitObserver.NONE);
        }

        @Override
        public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit, SubmitObserver observer) {
            observer.directCallSent();
            return gated.submit(call, permit);
        }

        @Override
        public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
            return gated.status(task);
        }

        @Override
        public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
            return gated.cancel(task);
        }
    }
}
