package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Eight workers, each with its own connection pool, scan the same 2,000 due rows at once: SKIP LOCKED must hand
 * every row to exactly one of them in each claim generation. Rounds default to 2; run
 * {@code -Dmcptasks.pg.disjointRounds=20} to repeat it 20 times.
 */
class DisjointClaimsTest {
    private static final int WORKERS = 8;
    private static final int ROWS = 2_000;
    private static final int SCAN_LIMIT = 16;
    private static final Duration LEASE = Duration.ofSeconds(60);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-05-01T08:00:00Z"));

    @Test
    void eachDueRowGoesToExactlyOneWorkerPerGeneration() throws Exception {
        int rounds = Integer.getInteger("mcptasks.pg.disjointRounds", 2);
        System.out.println("disjoint claims: " + WORKERS + " workers, " + ROWS + " rows, " + rounds + " rounds");
        PostgresSettings shared = PostgresTestDatabase.freshSchema();
        PostgresSettings settings = new PostgresSettings(shared.jdbcUrl(), shared.user(), shared.password(), 1,
                shared.connectTimeout());
        // The schema must exist before eight workers race to migrate it; then load the due rows.
        PostgresTaskRepositories.open(settings, clock, new SequentialIdGenerator(), FencedWriteHook.NONE).close();
        new TaskSeeder(settings).due("row-", ROWS, "working", false, clock.now());

        List<CloseableTaskRepository> workers = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(WORKERS);
        try {
            for (int i = 0; i < WORKERS; i++) {
                workers.add(PostgresTaskRepositories.open(settings, clock, new PrefixedIds("w" + i),
                        FencedWriteHook.NONE));
            }
            Set<ClaimToken> everyToken = new HashSet<>();
            for (int round = 1; round <= rounds; round++) {
                List<ClaimedTask> claimed = claimRound(workers, threads);

                assertThat(claimed).hasSize(ROWS);
                assertThat(claimed.stream().map(task -> task.claim().taskId()).distinct()).hasSize(ROWS);
                for (ClaimedTask task : claimed) {
                    assertThat(everyToken.add(task.claim().token())).as("token reused: %s", task.claim().token())
                            .isTrue();
                    assertThat(task.task().control().pollAttemptCount()).isEqualTo(round);
                }
                assertThat(pollAttemptsPerRow(settings)).containsExactly((long) round);
                clock.advance(LEASE); // every lease expires: the next round is a new claim generation
            }
        } finally {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            workers.forEach(CloseableTaskRepository::close);
        }
    }

    /** All workers start scanning together and keep scanning until a scan comes back empty. */
    private List<ClaimedTask> claimRound(List<CloseableTaskRepository> workers, ExecutorService threads)
            throws Exception {
        CyclicBarrier start = new CyclicBarrier(workers.size());
        List<CompletableFuture<List<ClaimedTask>>> results = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            CloseableTaskRepository repository = workers.get(i);
            WorkerId worker = WorkerId.of("worker-" + i);
            results.add(CompletableFuture.supplyAsync(() -> {
                awaitBarrier(start);
                List<ClaimedTask> mine = new ArrayList<>();
                while (true) {
                    List<ClaimedTask> batch = repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL,
                            worker, SCAN_LIMIT, LEASE, Duration.ofSeconds(30), Set.of()));
                    if (batch.isEmpty()) {
                        return mine;
                    }
                    mine.addAll(batch);
                }
            }, threads));
        }
        List<ClaimedTask> all = new ArrayList<>();
        for (CompletableFuture<List<ClaimedTask>> result : results) {
            all.addAll(result.get(120, TimeUnit.SECONDS));
        }
        return all;
    }

    private static void awaitBarrier(CyclicBarrier barrier) {
        try {
            barrier.await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("workers did not start together", e);
        }
    }

    private static List<Long> pollAttemptsPerRow(PostgresSettings settings) throws Exception {
        List<Long> distinct = new ArrayList<>();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT DISTINCT poll_attempt_count FROM tasks ORDER BY 1")) {
            while (rows.next()) {
                distinct.add(rows.getLong(1));
            }
        }
        return distinct;
    }

    /** Tokens unique across workers: each worker's generator has its own prefix. */
    private static final class PrefixedIds implements dev.mcptasks.ports.IdGenerator {
        private final String prefix;
        private final SequentialIdGenerator sequence = new SequentialIdGenerator();

        PrefixedIds(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public TaskId newTaskId() {
            return TaskId.of(prefix + "-" + sequence.newTaskId().value());
        }

        @Override
        public ClaimToken newClaimToken() {
            return ClaimToken.of(prefix + "-" + sequence.newClaimToken().value());
        }
    }
}
