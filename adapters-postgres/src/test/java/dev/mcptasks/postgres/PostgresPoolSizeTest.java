package dev.mcptasks.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pool holds as many connections as the settings say (the runtime sizes it from its slots), not a fixed 4. */
class PostgresPoolSizeTest {
    private static final int POOL = 7;

    @Test
    void asManyTransactionsAsThePoolSizeRunAtOnce() throws Exception {
        PostgresSettings schema = PostgresTestDatabase.freshSchema();
        PostgresSettings settings = new PostgresSettings(schema.jdbcUrl(), schema.user(), schema.password(), POOL,
                schema.connectTimeout());
        ExecutorService threads = Executors.newFixedThreadPool(POOL);
        try (CloseableTaskRepository repository = PostgresTaskRepositories.open(settings,
                new ManualClock(Instant.parse("2026-01-01T00:00:00Z")), new SequentialIdGenerator(),
                FencedWriteHook.NONE)) {
            // each transaction holds its connection until all of them hold one
            CountDownLatch holding = new CountDownLatch(POOL);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < POOL; i++) {
                results.add(threads.submit(() -> repository.inOneTransaction(() -> {
                    holding.countDown();
                    try {
                        return holding.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                })));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS)).as("all %d connections held at once", POOL).isTrue();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
