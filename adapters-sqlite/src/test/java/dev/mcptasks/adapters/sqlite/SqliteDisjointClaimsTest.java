package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two repositories with separate pools on one file (as two processes would be) and eight threads claim the same
 * rows at once: in each lease generation every row goes to exactly one claimer.
 */
class SqliteDisjointClaimsTest {
    private static final int ROWS = 2_000;
    private static final int THREADS = 8;
    private static final int GENERATIONS = 2;
    private static final Duration LEASE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final List<CloseableTaskRepository> repositories = new ArrayList<>();
    private final AtomicInteger busyRetries = new AtomicInteger();
    private ExecutorService threads;

    @BeforeEach
    void open() {
        for (int i = 0; i < 2; i++) {
            repositories.add(SqliteFixture.open(dir.resolve("tasks.db"), clock, ids));
        }
        threads = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void close() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        repositories.forEach(CloseableTaskRepository::close);
    }

    @Test
    void everyRowIsClaimedExactlyOncePerGeneration() throws Exception {
        List<TaskId> rows = SeedRows.pending(dir.resolve("tasks.db"), ROWS, clock.now().toEpochMilli());
        for (int generation = 1; generation <= GENERATIONS; generation++) {
            Map<TaskId, Integer> claims = claimAllConcurrently();
            assertThat(claims.keySet()).as("generation %d", generation).containsExactlyInAnyOrderElementsOf(rows);
            assertThat(claims.values()).as("claims per row, generation %d", generation).containsOnly(1);
            for (TaskId id : List.of(rows.get(0), rows.get(ROWS - 1))) {
                assertThat(repositories.get(0).find(id).orElseThrow().control().submitAttemptCount())
                        .isEqualTo(generation);
            }
            // every lease of this generation expires: the next generation may take every row again
            clock.advance(LEASE);
        }
        System.out.println("busy retries: " + busyRetries.get());
    }

    /** All threads start together and claim until a scan comes back empty; returns claims per row. */
    private Map<TaskId, Integer> claimAllConcurrently() throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<TaskId>>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            TaskRepository repository = repositories.get(t % 2);
            WorkerId worker = WorkerId.of("worker-" + t);
            Callable<List<TaskId>> claimer = () -> {
                start.await();
                List<TaskId> mine = new ArrayList<>();
                while (true) {
                    List<ClaimedTask> batch;
                    try {
                        batch = repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, worker, 10,
                                LEASE, Duration.ofSeconds(30), Set.of()));
                    } catch (TransientRepositoryException busy) {
                        // the other "process" held the write lock past the busy timeout; nothing was claimed
                        busyRetries.incrementAndGet();
                        continue;
                    }
                    if (batch.isEmpty()) {
                        return mine;
                    }
                    batch.forEach(claimed -> mine.add(claimed.claim().taskId()));
                }
            };
            results.add(threads.submit(claimer));
        }
        start.countDown();
        Map<TaskId, Integer> claims = new HashMap<>();
        for (Future<List<TaskId>> result : results) {
            for (TaskId id : result.get(120, TimeUnit.SECONDS)) {
                claims.merge(id, 1, Integer::sum);
            }
        }
        return claims;
    }
}
