package dev.mcptasks.core.runtime;

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
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One principal's long calls cannot hold every slot of a worker: with 4 slots a principal's calls hold at most 3,
 * so another principal's call is sent at once while the first has more waiting, both when calls are created claimed
 * by the worker of their process and when a scan finds them. The clock never moves: no tick fires by itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PrincipalShareTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String SERVER = "srv";

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    private final GatedDriver driver = new GatedDriver("gated", clock);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile(SERVER, "gated", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(store, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), LifecycleHarness.settings(4), store,
            new TaskDriverRegistry(List.of(driver), servers), servers, clock, () -> 0.5, executor,
            RuntimeListener.NONE);

    /**
     * Stops the worker, answering every call meanwhile: the drain bound runs on the manual clock, which never moves,
     * so stopping waits for the calls to end, and a call a rescan started after the test's last answer must end too.
     */
    @AfterEach
    void close() throws Exception {
        CompletableFuture<Void> stopped = worker.stop();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!stopped.isDone() && System.nanoTime() < deadline) {
            driver.calls().forEach(call -> call.complete(done(call.task())));
            Thread.sleep(5);
        }
        stopped.get(1, TimeUnit.SECONDS);
        executor.shutdownNow();
    }

    @Test
    void aPrincipalsCallsCreatedClaimedHoldAtMostItsShare() throws Exception {
        service.claimSubmitsWith(worker.submitClaims());
        worker.start();

        List<TaskId> busy = submit("busy", 5);
        for (TaskId id : busy.subList(0, 3)) {
            driver.awaitCall(SUBMIT, id, 1, WAIT);
        }
        TaskId other = submit("other", 1).get(0);
        driver.awaitCall(SUBMIT, other, 1, WAIT);
        worker.tick(); // a whole pass on this thread: a scan that could take the waiting calls has run

        assertThat(held(busy)).as("the share of 4 slots is 3").isEqualTo(3);
        assertThat(store.find(busy.get(3)).orElseThrow().lease().isHeld()).isFalse();

        driver.calls(SUBMIT, busy.get(0)).get(0).complete(done(busy.get(0)));
        awaitStatus(busy.get(0), TaskStatus.COMPLETED);
        // the freed slot may go to the waiting call at once (the result's write signals work), or at a tick: not
        // "3 slots in use" first, which a 5 ms poll can miss between the release and the next claim
        tickUntilCalled(busy.get(3));
        assertThat(held(busy)).isEqualTo(3);
    }

    @Test
    void aScanGivesBackWhatWouldTakeAPrincipalPastItsShare() throws Exception {
        worker.start();
        List<TaskId> busy = submit("busy", 5);
        TaskId other = submit("other", 1).get(0);

        // what must hold whichever pass takes the other principal's call: no pass took the busy one past its share
        tickUntilCalled(other);
        for (TaskId id : busy.subList(0, 3)) {
            driver.awaitCall(SUBMIT, id, 1, WAIT);
        }
        worker.tick();

        assertThat(held(busy)).isEqualTo(3);
        assertThat(driver.calls(SUBMIT, busy.get(3))).isEmpty();
        assertThat(driver.calls(SUBMIT, busy.get(4))).isEmpty();
    }

    @Test
    void callsOfNoPrincipalAreNeverHeldBack() throws Exception {
        worker.start();
        List<TaskId> tasks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            tasks.add(service.submit(SERVER, "job", "{\"n\":" + i + "}").id());
        }

        worker.tick();

        for (TaskId id : tasks) {
            driver.awaitCall(SUBMIT, id, 1, WAIT);
        }
    }

    /**
     * Whole passes on this thread until {@code id}'s create request is out: which pass takes a row depends on how
     * the passes that creates and releases started interleave (a scan that finds no free slot waits for the tick,
     * which this clock never fires).
     */
    private void tickUntilCalled(TaskId id) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (driver.calls(SUBMIT, id).isEmpty() && System.nanoTime() < deadline) {
            worker.tick();
            Thread.sleep(5);
        }
        driver.awaitCall(SUBMIT, id, 1, Duration.ofSeconds(1));
    }

    private List<TaskId> submit(String principal, int count) {
        List<TaskId> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            created.add(service.submitFor(principal, SERVER, "job", "{\"n\":" + i + "}", null).id());
        }
        return created;
    }

    private long held(List<TaskId> tasks) {
        return tasks.stream().filter(id -> store.find(id).orElseThrow().lease().isHeld()).count();
    }

    private static SubmitResult done(TaskId id) {
        return new SubmitResult(RemoteTaskSnapshot.of("r-" + id.value(), TaskStatus.COMPLETED)
                .withResult("{\"content\":[],\"isError\":false}"), "2025-11-25", false);
    }

    private void awaitStatus(TaskId id, TaskStatus status) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (store.find(id).orElseThrow().status() != status) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("task " + id + " never became " + status);
            }
            Thread.sleep(5);
        }
    }
}
