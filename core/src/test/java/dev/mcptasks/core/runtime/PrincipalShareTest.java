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

    @AfterEach
    void close() throws Exception {
        driver.calls().forEach(call -> call.complete(done(call.task())));
        worker.stop().get(20, TimeUnit.SECONDS);
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
        awaitSlotsInUse(3);
        worker.tick();
        driver.awaitCall(SUBMIT, busy.get(3), 1, WAIT);
        assertThat(held(busy)).isEqualTo(3);
    }

    @Test
    void aScanGivesBackWhatWouldTakeAPrincipalPastItsShare() throws Exception {
        worker.start();
        List<TaskId> busy = submit("busy", 5);
        TaskId other = submit("other", 1).get(0);

        worker.tick();
        for (TaskId id : busy.subList(0, 3)) {
            driver.awaitCall(SUBMIT, id, 1, WAIT);
        }
        driver.awaitCall(SUBMIT, other, 1, WAIT);
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

    private void awaitSlotsInUse(int slots) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (worker.metrics().slotsInUse() != slots) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("slots in use stayed " + worker.metrics().slotsInUse());
            }
            Thread.sleep(5);
        }
    }
}
