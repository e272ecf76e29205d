package dev.mcptasks.core.runtime;

import dev.mcptasks.adapters.postgres.PostgresTaskRepositories;
import dev.mcptasks.adapters.postgres.PostgresTestDatabase;
import dev.mcptasks.adapters.sqlite.SqliteSettings;
import dev.mcptasks.adapters.sqlite.SqliteTaskRepositories;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedDriver;
import dev.mcptasks.testkit.faults.FaultInjectingRepository;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A production repository (SQLite or PostgreSQL) behind a fault-injecting decorator, a manual clock, a gated driver
 * and any number of workers, for the lease lifecycle matrix. Time moves only through {@link #advance}.
 */
final class LifecycleHarness implements AutoCloseable {
    static final Duration LEASE = Duration.ofSeconds(30);
    /** A third of the lease: the renewal interval and each renewal's deadline. */
    static final Duration STEP = LEASE.dividedBy(3);
    static final Duration POLL = Duration.ofSeconds(1);
    static final Duration DRAIN = Duration.ofSeconds(5);
    static final String SERVER = "srv";

    /** The stores the matrix runs against. */
    enum Backend { SQLITE, POSTGRES }

    final ManualClock clock = new ManualClock();
    final CloseableTaskRepository store;
    final FaultInjectingRepository repository;
    final GatedDriver driver = new GatedDriver("gated", clock);
    final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile(SERVER, "gated", null, SubmitPolicy.AT_MOST_ONCE)));
    final TaskDriverRegistry drivers = new TaskDriverRegistry(List.of(driver), servers);
    final TaskService service;
    final ExecutorService executor = Executors.newCachedThreadPool(daemonThreads());
    private final List<TestWorker> workers = new ArrayList<>();
    private final TestWorker setup;
    private final AtomicInteger remoteIds = new AtomicInteger();

    LifecycleHarness(Backend backend, Path directory) {
        SequentialIdGenerator ids = new SequentialIdGenerator();
        store = switch (backend) {
            case SQLITE -> SqliteTaskRepositories.open(SqliteSettings.forFile(directory.resolve("tasks.db")), clock,
                    ids, FencedWriteHook.NONE);
            case POSTGRES -> PostgresTaskRepositories.open(PostgresTestDatabase.freshDatabase(), clock, ids,
                    FencedWriteHook.NONE);
        };
        repository = new FaultInjectingRepository(store);
        service = new TaskService(repository, servers, ids);
        setup = worker("setup", 64);
    }

    static RuntimeSettings settings(int slots) {
        return new RuntimeSettings(LEASE, POLL, slots, Duration.ofSeconds(60), Duration.ofSeconds(5), 3,
                1024 * 1024, DRAIN, Duration.ofSeconds(1), Duration.ofSeconds(30));
    }

    TestWorker worker(String name, int slots) {
        return worker(name, slots, false, executor);
    }

    /**
     * @param ownClock the worker's timers run on a clock of their own, which {@link #advance} moves only while the
     *     worker is alive, so {@link TestWorker#die()} freezes it like a dead process
     */
    TestWorker worker(String name, int slots, boolean ownClock, Executor operations) {
        ManualClock workerClock = ownClock ? new ManualClock(clock.now()) : clock;
        RecordingListener events = new RecordingListener();
        WorkerRuntime runtime = new WorkerRuntime(WorkerId.of(name), settings(slots), repository, drivers, servers,
                workerClock, () -> 0.5, operations, events);
        TestWorker worker = new TestWorker(runtime, events, workerClock);
        synchronized (workers) {
            workers.add(worker);
        }
        return worker;
    }

    /** Moves the store's clock, and the own clocks of live workers, by {@code step}. */
    void advance(Duration step) {
        clock.advance(step);
        List<TestWorker> current;
        synchronized (workers) {
            current = List.copyOf(workers);
        }
        for (TestWorker worker : current) {
            if (worker.clock != clock && worker.alive()) {
                worker.clock.advance(step);
            }
        }
    }

    /** Creates {@code count} tasks, runs their creation through a setup worker, and makes them due for a poll. */
    List<TaskId> workingTasks(int count) {
        List<TaskId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            TaskId id = service.submit(SERVER, "long_job", "{\"n\":" + i + "}").id();
            driver.script(GatedDriver.Kind.SUBMIT, id, new SubmitResult(
                    RemoteTaskSnapshot.of("remote-" + remoteIds.incrementAndGet(), TaskStatus.WORKING), "2025-11-25",
                    false));
            ids.add(id);
        }
        setup.tick();
        for (TaskId id : ids) {
            setup.awaitSettled(id, 1);
            if (row(id).status() != TaskStatus.WORKING) {
                throw new AssertionError("set-up did not create " + id + ": " + row(id));
            }
        }
        advance(POLL);
        return ids;
    }

    TaskId workingTask() {
        return workingTasks(1).get(0);
    }

    TaskRecord row(TaskId id) {
        return store.find(id).orElseThrow();
    }

    static RemoteTaskSnapshot completed(TaskRecord row, String resultJson) {
        return RemoteTaskSnapshot.of(row.state().remoteTaskId(), TaskStatus.COMPLETED).withResult(resultJson);
    }

    static RemoteTaskSnapshot snapshot(TaskRecord row, TaskStatus status) {
        return RemoteTaskSnapshot.of(row.state().remoteTaskId(), status);
    }

    static RemoteCallException transientFailure(String message) {
        return new RemoteCallException(RemoteFailure.TRANSIENT, message);
    }

    @Override
    public void close() throws InterruptedException {
        repository.healAll();
        driver.failAllOpen(transientFailure("test over"));
        executor.shutdown();
        if (!executor.awaitTermination(20, TimeUnit.SECONDS)) {
            executor.shutdownNow();
        }
        store.close();
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "runtime-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
