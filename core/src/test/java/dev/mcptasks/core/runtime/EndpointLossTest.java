package dev.mcptasks.core.runtime;

import static dev.mcptasks.testkit.driver.GatedDriver.Kind.CANCEL;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.STATUS;
import static dev.mcptasks.testkit.driver.GatedDriver.Kind.SUBMIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
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
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedCall;
import dev.mcptasks.testkit.driver.GatedDriver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A worker that cannot see a task through its own endpoint (the driver says {@code TASK_LOST}) declares it
 * {@code remote_task_lost} only when the task's creator is known gone or is this worker; while the creator may be
 * alive it hands the task back to the creator's endpoint, and it learns that the server binds tasks to sessions.
 * Two workers share one in-memory store (whose clock is the store's) and each has its own driver: its own session.
 */
class EndpointLossTest {
    private static final Duration POLL = LifecycleHarness.POLL;
    private static final Duration STALE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final WorkerId A = WorkerId.of("worker-a");
    private static final WorkerId B = WorkerId.of("worker-b");

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("srv", "gated", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final GatedDriver sessionOfA = new GatedDriver("gated", clock);
    private final GatedDriver sessionOfB = new GatedDriver("gated", clock);
    private final RecordingListener eventsOfA = new RecordingListener();
    private final RecordingListener eventsOfB = new RecordingListener();
    private final WorkerRuntime a = worker(A, sessionOfA, eventsOfA);
    private final WorkerRuntime b = worker(B, sessionOfB, eventsOfB);

    @AfterEach
    void shutdown() {
        sessionOfA.failAllOpen(new RemoteCallException(RemoteFailure.TRANSIENT, "test over"));
        sessionOfB.failAllOpen(new RemoteCallException(RemoteFailure.TRANSIENT, "test over"));
        executor.shutdownNow();
    }

    @Test
    void aProcessLocalTaskOfACreatorThatLookedStaleButIsAliveIsHandedBackNotLost() throws Exception {
        heartbeat(A);
        TaskId id = createdBy(a, sessionOfA, eventsOfA, true);
        // A's heartbeats stall (a store stall, a paused process) past the bound: B may claim A's task
        clock.advance(STALE.plusSeconds(1));
        b.tick();
        GatedCall blind = sessionOfB.awaitCall(STATUS, id, WAIT);
        heartbeat(A); // the stall ends while B's status call is in flight: A is alive after all
        blind.fail(new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));
        eventsOfB.await(RecordingListener.Type.SETTLED, id, 1);

        TaskRecord released = row(id);
        assertThat(released.status()).as("not lost: A's session may still hold it").isEqualTo(TaskStatus.WORKING);
        assertThat(released.state().errorCode()).isNull();
        assertThat(released.state().endpointOwner()).isEqualTo(A);
        assertThat(released.lease().isHeld()).isFalse();
        assertThat(released.control().consecutiveErrorCount()).isZero();

        b.tick();
        sessionOfA.script(STATUS, id, RemoteTaskSnapshot.of("r-" + id, TaskStatus.COMPLETED));
        a.tick();
        eventsOfA.await(RecordingListener.Type.SETTLED, id, 2);
        assertThat(row(id).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(sessionOfB.calls(STATUS, id)).as("B never tried again while A lives").hasSize(1);
    }

    @Test
    void aProcessLocalTaskOfACreatorKnownGoneIsLost() throws Exception {
        heartbeat(A);
        TaskId id = createdBy(a, sessionOfA, eventsOfA, true);
        repository.removeWorker(A);
        sessionOfB.script(STATUS, id, new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));

        b.tick();
        eventsOfB.await(RecordingListener.Type.SETTLED, id, 1);

        assertThat(row(id).status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row(id).state().errorCode()).isEqualTo(ErrorCodes.REMOTE_TASK_LOST);
    }

    @Test
    void aCreatorWhoseHeartbeatIsOlderThanTheBoundAtTheVerdictIsGone() throws Exception {
        heartbeat(A);
        TaskId id = createdBy(a, sessionOfA, eventsOfA, true);
        clock.advance(STALE.plusSeconds(1));
        sessionOfB.script(STATUS, id, new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));

        b.tick();
        eventsOfB.await(RecordingListener.Type.SETTLED, id, 1);

        assertThat(row(id).state().errorCode()).isEqualTo(ErrorCodes.REMOTE_TASK_LOST);
    }

    @Test
    void aSharedTaskAnotherSessionCannotSeeRevealsASessionBoundServerAndGoesBackToItsLiveCreator()
            throws Exception {
        heartbeat(A);
        heartbeat(B);
        TaskId id = createdBy(a, sessionOfA, eventsOfA, false);
        assertThat(row(id).state().endpointOwner()).as("configured as shared").isNull();
        sessionOfB.script(STATUS, id, new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));

        b.tick();
        eventsOfB.await(RecordingListener.Type.SETTLED, id, 1);

        TaskRecord handedBack = row(id);
        assertThat(handedBack.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(handedBack.state().endpointOwner()).as("bound to its creator's session").isEqualTo(A);
        b.tick();
        sessionOfA.script(STATUS, id, RemoteTaskSnapshot.of("r-" + id, TaskStatus.COMPLETED));
        a.tick();
        eventsOfA.await(RecordingListener.Type.SETTLED, id, 2);
        assertThat(row(id).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(sessionOfB.calls(STATUS, id)).hasSize(1);

        // B remembers: its own later tasks on that server are bound to its session, though the driver says shared
        TaskId later = createdBy(b, sessionOfB, eventsOfB, false);
        assertThat(row(later).state().endpointOwner()).isEqualTo(B);
    }

    @Test
    void aCancelThatCannotSeeALiveCreatorsTaskHandsItBackToo() throws Exception {
        heartbeat(A);
        heartbeat(B);
        TaskId id = createdBy(a, sessionOfA, eventsOfA, false);
        assertThat(repository.requestCancel(id)).isEqualTo(CancelRequestOutcome.REQUESTED);
        sessionOfB.script(CANCEL, id, new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));

        b.tick();
        eventsOfB.await(RecordingListener.Type.SETTLED, id, 1);

        assertThat(row(id).status()).isEqualTo(TaskStatus.WORKING);
        assertThat(row(id).state().endpointOwner()).isEqualTo(A);
        sessionOfA.script(CANCEL, id, RemoteTaskSnapshot.of("r-" + id, TaskStatus.CANCELLED));
        a.tick();
        eventsOfA.await(RecordingListener.Type.SETTLED, id, 2);
        assertThat(row(id).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    @Test
    void aTaskThisWorkersOwnSessionCreatedAndCannotSeeIsLost() throws Exception {
        heartbeat(A);
        TaskId id = createdBy(a, sessionOfA, eventsOfA, false);
        sessionOfA.script(STATUS, id, new RemoteCallException(RemoteFailure.TASK_LOST, "-32602 task not found"));

        a.tick();
        eventsOfA.await(RecordingListener.Type.SETTLED, id, 2);

        assertThat(row(id).state().errorCode()).isEqualTo(ErrorCodes.REMOTE_TASK_LOST);
    }

    private WorkerRuntime worker(WorkerId id, GatedDriver session, RecordingListener events) {
        RuntimeSettings settings = LifecycleHarness.settings(4);
        return new WorkerRuntime(id, settings, repository, new TaskDriverRegistry(List.of(session), servers),
                servers, clock, () -> 0.5, executor, events);
    }

    private void heartbeat(WorkerId worker) {
        repository.heartbeat(new WorkerInfo(worker, "host", 1, clock.now()));
    }

    /** A task the given worker created through its own session, due for its first poll. */
    private TaskId createdBy(WorkerRuntime worker, GatedDriver session, RecordingListener events,
            boolean processLocal) {
        TaskId id = service.submit("srv", "job", "{}").id();
        session.script(SUBMIT, id, new SubmitResult(RemoteTaskSnapshot.of("r-" + id, TaskStatus.WORKING), "v",
                processLocal));
        worker.tick();
        events.await(RecordingListener.Type.SETTLED, id, 1);
        clock.advance(POLL);
        assertThat(row(id).state().createdBy()).isEqualTo(worker.workerId());
        return id;
    }

    private TaskRecord row(TaskId id) {
        return repository.find(id).orElseThrow();
    }
}
