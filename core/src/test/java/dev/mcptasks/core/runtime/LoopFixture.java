package dev.mcptasks.core.runtime;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.InstantDriver;
import dev.mcptasks.testkit.faults.FaultInjectingRepository;
import dev.mcptasks.testkit.notification.ScriptedSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker of the control loop on the in-memory store (which signals work arrival like the SQL stores), with a
 * manual clock that moves only when a test says so, a driver and a sink that answer at once, and every claim scan
 * counted. Time never passes by itself, so whatever the worker does without {@link #advance} it did without its
 * tick timer.
 */
final class LoopFixture implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(20);
    static final String SERVER = "srv";

    final ManualClock clock = new ManualClock();
    final SequentialIdGenerator ids = new SequentialIdGenerator();
    final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    final FaultInjectingRepository faults = new FaultInjectingRepository(store);
    final CountingScans repository = new CountingScans(faults);
    final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile(SERVER, InstantDriver.NAME, null, SubmitPolicy.AT_MOST_ONCE)));
    final TaskService service = new TaskService(store, servers, ids);
    final InstantDriver driver = new InstantDriver();
    final ScriptedSink sink = new ScriptedSink();
    final QuietExecutor executor = new QuietExecutor();
    final RuntimeSettings settings;
    final WorkerRuntime worker;

    LoopFixture(int slots) {
        settings = LifecycleHarness.settings(slots);
        worker = new WorkerRuntime(WorkerId.of("w"), settings, repository,
                new TaskDriverRegistry(List.of(driver), servers), servers, clock, () -> 0.5, executor, sink,
                RuntimeListener.NONE);
    }

    List<TaskId> submit(int count) {
        List<TaskId> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            created.add(service.submit(SERVER, "job", "{\"n\":" + i + "}").id());
        }
        return created;
    }

    long withStatus(List<TaskId> tasks, TaskStatus status) {
        return tasks.stream().filter(id -> store.find(id).orElseThrow().status() == status).count();
    }

    /**
     * Waits until the worker does nothing by itself any more: the executor is quiet and the group commit (whose
     * committer threads are not the executor's) is idle, seen in that order with the executor still quiet after it.
     * A committer hands its follow-up work to the executor before it goes idle, so nothing can slip between the two.
     */
    void awaitQuiet() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            executor.awaitQuiet(WAIT);
            if (worker.commitsIdle() && executor.isQuiet()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the group commit was still busy after " + WAIT);
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            worker.stop();
        } finally {
            executor.close();
        }
    }

    /**
     * Counts claim scans per phase (and notify scans), can fail the n-th scan of a phase, and tracks subscriptions:
     * the claims, the outbox and the store scope are watched.
     */
    static final class CountingScans implements ComposedTaskRepository {
        private final Roles roles;
        private final Counts counts;

        CountingScans(TaskRepository delegate) {
            this(delegate, new Counts());
        }

        private CountingScans(TaskRepository delegate, Counts counts) {
            this.roles = ComposedTaskRepository.of(delegate)
                    .withClaims(claims -> new ForwardingTaskClaims() {
                        @Override
                        public TaskClaims delegate() {
                            return claims;
                        }

                        @Override
                        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
                            int n = counts.scans.computeIfAbsent(request.phase(), p -> new AtomicInteger())
                                    .incrementAndGet();
                            if (counts.failAt.getOrDefault(request.phase(), 0) == n) {
                                throw new RepositoryUnavailableException("database unreachable", null);
                            }
                            return ForwardingTaskClaims.super.claimControl(request);
                        }
                    })
                    .withOutbox(outbox -> new ForwardingNotificationOutbox() {
                        @Override
                        public NotificationOutbox delegate() {
                            return outbox;
                        }

                        /** The notify phase's scan (each delivery claimed and marked dispatched in one write). */
                        @Override
                        public List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
                            counts.notifyScans.incrementAndGet();
                            return ForwardingNotificationOutbox.super.claimNotificationsDispatched(request);
                        }
                    })
                    .withStoreScope(scope -> new ForwardingStoreScope() {
                        @Override
                        public StoreScope delegate() {
                            return scope;
                        }

                        @Override
                        public WorkSubscription onWorkArrival(Runnable listener) {
                            WorkSubscription subscription = ForwardingStoreScope.super.onWorkArrival(listener);
                            counts.openSubscriptions.incrementAndGet();
                            AtomicBoolean closed = new AtomicBoolean();
                            return () -> {
                                if (closed.compareAndSet(false, true)) {
                                    counts.openSubscriptions.decrementAndGet();
                                }
                                subscription.close();
                            };
                        }
                    });
            this.counts = counts;
        }

        @Override
        public Roles roles() {
            return roles;
        }

        /** The {@code nth} scan of {@code phase} (counting from the first ever) fails as an unreachable store. */
        void failScan(ClaimPhase phase, int nth) {
            counts.failAt.put(phase, nth);
        }

        int scans(ClaimPhase phase) {
            return counts.scans.computeIfAbsent(phase, p -> new AtomicInteger()).get();
        }

        int notifyScans() {
            return counts.notifyScans.get();
        }

        int openSubscriptions() {
            return counts.openSubscriptions.get();
        }

        private static final class Counts {
            final Map<ClaimPhase, AtomicInteger> scans = new ConcurrentHashMap<>();
            final AtomicInteger notifyScans = new AtomicInteger();
            final Map<ClaimPhase, Integer> failAt = new ConcurrentHashMap<>();
            final AtomicInteger openSubscriptions = new AtomicInteger();
        }
    }
}
