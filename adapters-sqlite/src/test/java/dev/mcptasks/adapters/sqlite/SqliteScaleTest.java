package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finished rows do not slow claims down: claiming 50 due rows costs about the same beside 200,000 terminal rows as
 * in an otherwise empty table (runtime-behaviour.md section 3: a claim rate falling with the table size is a
 * defect). Only a loose factor is asserted; both medians are printed.
 */
class SqliteScaleTest {
    private static final int TERMINAL_ROWS = 200_000;
    private static final int DUE_ROWS = 50;
    private static final int SAMPLES = 15;
    /** Below this a median is commit latency and scheduler noise, not scan cost: compare against at least it. */
    private static final double NOISE_FLOOR_MILLIS = 5.0;
    private static final Duration LEASE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void claimTimeDoesNotGrowWithFinishedRows() throws Exception {
        double empty = medianClaimMillis(dir.resolve("empty.db"), 0);
        double seeded = medianClaimMillis(dir.resolve("seeded.db"), TERMINAL_ROWS);
        System.out.printf("median claim of %d due rows: %.2f ms beside no finished rows, %.2f ms beside %,d%n",
                DUE_ROWS, empty, seeded, TERMINAL_ROWS);
        assertThat(seeded).as("claim time beside %,d finished rows (empty table: %.2f ms)", TERMINAL_ROWS, empty)
                .isLessThan(5 * Math.max(empty, NOISE_FLOOR_MILLIS));
    }

    private double medianClaimMillis(Path file, int terminalRows) throws Exception {
        ManualClock clock = new ManualClock();
        try (CloseableTaskRepository repository = SqliteFixture.open(file, clock, new SequentialIdGenerator())) {
            SeedRows.terminal(file, terminalRows, clock.now().toEpochMilli());
            SeedRows.pending(file, DUE_ROWS, clock.now().toEpochMilli());
            claimAll(repository, clock); // warm-up: JIT, page cache
            double[] samples = new double[SAMPLES];
            for (int i = 0; i < SAMPLES; i++) {
                clock.advance(LEASE); // the previous claims expire, so every row is due and free again
                long start = System.nanoTime();
                claimAll(repository, clock);
                samples[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(samples);
            return samples[SAMPLES / 2];
        }
    }

    private static void claimAll(CloseableTaskRepository repository, ManualClock clock) {
        int claimed = repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("w"), DUE_ROWS,
                LEASE, Duration.ofSeconds(30), Set.of())).size();
        assertThat(claimed).isEqualTo(DUE_ROWS);
    }
}
