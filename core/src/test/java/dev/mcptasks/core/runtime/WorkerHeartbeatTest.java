package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingWorkerRegistry;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.ports.repository.WorkerRegistry;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's own heartbeat: every third of {@code workerStaleAfter} while the store answers, and at the tick
 * interval after a failed one, so a short store outage does not eat a third of the staleness bound and let another
 * worker take this one for dead.
 */
class WorkerHeartbeatTest {
    private static final Duration STALE = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final FlakyHeartbeats heartbeats = new FlakyHeartbeats(store);
    private final TaskRepository repository = ComposedTaskRepository.of(store)
            .withWorkerRegistry(registry -> heartbeats);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final RuntimeSettings settings = LifecycleHarness.settings(2);
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), settings, repository,
            new TaskDriverRegistry(List.of(), ServerDirectory.of(List.of())), ServerDirectory.of(List.of()), clock,
            () -> 0.5, executor);

    @AfterEach
    void shutdown() {
        executor.shutdownNow();
    }

    @Test
    void aFailedHeartbeatIsRetriedAtTheTickIntervalNotAThirdOfTheBoundLater() throws Exception {
        assertThat(settings.tickInterval()).isLessThan(STALE.dividedBy(3));
        heartbeats.failures.set(1);
        worker.start();
        heartbeats.awaitAttempts(1);

        clock.advance(settings.tickInterval());

        heartbeats.awaitAttempts(2);
        assertThat(store.isWorkerAlive(WorkerId.of("w"), STALE)).isTrue();
    }

    @Test
    void aSuccessfulHeartbeatIsRepeatedEveryThirdOfTheBound() throws Exception {
        worker.start();
        heartbeats.awaitAttempts(1);
        clock.advance(STALE.dividedBy(3).minusMillis(1));
        clock.advance(Duration.ofMillis(1));

        heartbeats.awaitAttempts(2);
    }

    /** Counts heartbeat attempts and fails the first {@code failures} of them as an unreachable store would. */
    private static final class FlakyHeartbeats implements ForwardingWorkerRegistry {
        private final WorkerRegistry delegate;

        final AtomicInteger failures = new AtomicInteger();
        private final Semaphore attempts = new Semaphore(0);

        FlakyHeartbeats(WorkerRegistry delegate) {
            this.delegate = delegate;
        }

        @Override
        public WorkerRegistry delegate() {
            return delegate;
        }

        @Override
        public void heartbeat(WorkerInfo worker) {
            try {
                if (failures.getAndDecrement() > 0) {
                    throw new RepositoryUnavailableException("database unreachable", null);
                }
                ForwardingWorkerRegistry.super.heartbeat(worker);
            } finally {
                attempts.release();
            }
        }

        void awaitAttempts(int n) throws InterruptedException {
            assertThat(attempts.tryAcquire(n, 10, TimeUnit.SECONDS)).as("%s heartbeat attempts", n).isTrue();
            attempts.release(n);
        }
    }
}
