package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pool holds as many connections as the settings say (the runtime sizes it from its slots), not a fixed 4. */
class PostgresPoolSizeTest {
    private static final int POOL = 7;

    /**
     * No timing assumption: connections may open slowly on a loaded machine, so the borrow waits up to a minute and
     * the transactions wait for each other up to two; with a pool smaller than {@value #POOL} a borrow fails
     * (RepositoryUnavailableException) instead, and that failure ends the test at once.
     */
    @Test
    void asManyTransactionsAsThePoolSizeRunAtOnce() throws Exception {
        PostgresSettings schema = PostgresTestDatabase.freshSchema();
        PostgresSettings settings = new PostgresSettings(schema.jdbcUrl(), schema.user(), schema.password(), POOL,
                Duration.ofMinutes(1));
        ExecutorService threads = Executors.newFixedThreadPool(POOL);
        CompletionService<Boolean> results = new ExecutorCompletionService<>(threads);
        try (CloseableTaskRepository repository = PostgresTaskRepositories.open(settings,
                new ManualClock(Instant.parse("2026-01-01T00:00:00Z")), new SequentialIdGenerator(),
                FencedWriteHook.NONE)) {
            // each transaction holds its connection until all of them hold one
            CountDownLatch holding = new CountDownLatch(POOL);
            for (int i = 0; i < POOL; i++) {
                results.submit(() -> repository.inOneTransaction(() -> {
                    holding.countDown();
                    try {
                        return holding.await(2, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }));
            }
            for (int i = 0; i < POOL; i++) {
                // in completion order: a failed borrow surfaces while the others still wait
                assertThat(results.take().get()).as("all %d connections held at once", POOL).isTrue();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
