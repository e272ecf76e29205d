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
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.repository.TaskRecord;
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
 * A server that wants credentials mcp-tasks cannot get on its own ({@link RemoteFailure#AUTH_REQUIRED}): the task
 * ends {@code failed} / {@code auth_required} with the reason, whichever phase met it, and nothing is retried.
 */
class AuthRequiredTransitionsTest {
    private static final Duration POLL = LifecycleHarness.POLL;
    private static final String REASON = "server 'once' needs a login: run bin/mcp-tasks auth login once";

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final GatedDriver driver = new GatedDriver("gated", clock);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("once", "gated", null, SubmitPolicy.AT_MOST_ONCE),
            new ServerProfile("again", "gated", null, SubmitPolicy.AT_LEAST_ONCE)));
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
    void submitRefusedForWantOfAuthorizationFailsTheTaskAtOnceUnderEitherPolicy() {
        for (String server : List.of("once", "again")) {
            TaskId id = service.submit(server, "job", "{}").id();
            driver.script(SUBMIT, id, authRequired());

            TaskRecord row = runOnce(id, 1);

            assertAuthRequired(row);
            clock.advance(POLL.multipliedBy(100));
            worker.tick();
            assertThat(driver.calls(SUBMIT, id)).as("never sent again").hasSize(1);
        }
    }

    @Test
    void pollOrResultFetchRefusedForWantOfAuthorizationFailsTheTask() {
        TaskId id = working("r-1");
        driver.script(STATUS, id, authRequired());

        TaskRecord row = runOnce(id, 2);

        assertAuthRequired(row);
        assertThat(row.control().nextControlAt()).isNull();
        assertThat(row.outbox().eventVersion()).as("the user hears of it").isEqualTo(1);
    }

    @Test
    void answersRefusedForWantOfAuthorizationFailTheTaskInsteadOfBeingSentAgainByEveryPoll() {
        TaskId id = working("r-2");
        driver.script(STATUS, id, new RemoteTaskSnapshot("r-2", TaskStatus.INPUT_REQUIRED, "need a date", null,
                null, null, null, "{\"d\":{\"method\":\"elicitation/create\"}}", null));
        runOnce(id, 2);
        repository.answerInput(id, "d", "{\"action\":\"accept\"}");
        driver.script(ANSWER, id, authRequired());

        TaskRecord row = runOnce(id, 3);

        assertAuthRequired(row);
        assertThat(driver.calls(STATUS, id)).hasSize(1);
    }

    /**
     * The refused cancel sends the row back to polling, due at once: a pass already requested (the cancel request's
     * work-arrival signal) may start that poll before the test's next tick. So the poll is held open, not scripted,
     * and the row is read while it runs, between the two operations.
     */
    @Test
    void cancelRefusedForWantOfAuthorizationStopsCancellingAndTheNextPollEndsTheTask() throws Exception {
        TaskId id = working("r-3");
        service.requestCancel(id);
        driver.script(CANCEL, id, authRequired());
        runOnce(id, 2);
        worker.tick(); // starts the poll, unless a pass already did

        GatedCall poll = driver.awaitCall(STATUS, id, Duration.ofSeconds(20));
        TaskRecord afterCancel = repository.find(id).orElseThrow();

        assertThat(afterCancel.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(afterCancel.control().cancelRequestedAt()).as("out of the cancel phase").isNull();
        assertThat(afterCancel.control().lastCancelError()).contains(REASON);
        poll.fail(authRequired());
        events.await(RecordingListener.Type.SETTLED, id, 3);
        assertAuthRequired(repository.find(id).orElseThrow());
        assertThat(driver.calls(CANCEL, id)).hasSize(1);
    }

    private static RemoteCallException authRequired() {
        return new RemoteCallException(RemoteFailure.AUTH_REQUIRED, REASON);
    }

    private static void assertAuthRequired(TaskRecord row) {
        assertThat(row.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.AUTH_REQUIRED);
        assertThat(row.state().error()).contains(REASON);
        assertThat(row.lease().isHeld()).isFalse();
    }

    /** A task created through the runtime with remote id {@code remoteId}, due for its first poll. */
    private TaskId working(String remoteId) {
        TaskId id = service.submit("once", "job", "{}").id();
        driver.script(SUBMIT, id, new SubmitResult(RemoteTaskSnapshot.of(remoteId, TaskStatus.WORKING),
                "2026-07-28", false));
        runOnce(id, 1);
        clock.advance(POLL);
        return id;
    }

    /** Ticks once and waits for the {@code n}-th operation on {@code id} to settle. */
    private TaskRecord runOnce(TaskId id, int n) {
        worker.tick();
        events.await(RecordingListener.Type.SETTLED, id, n);
        return repository.find(id).orElseThrow();
    }
}
