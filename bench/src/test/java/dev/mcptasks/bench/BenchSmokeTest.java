package dev.mcptasks.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.assembly.SystemClock;
import dev.mcptasks.app.runtime.RuntimeSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny bench on SQLite in a few seconds: the instrument itself works (both burn-downs finish every task, the
 * latency probe sees its submits, the table renders). No figure is judged.
 */
class BenchSmokeTest {
    @TempDir
    Path dir;

    @Test
    void aTinyBurnDownOfBothSchedulersFinishesEveryTask() throws Exception {
        try (SystemClock clock = new SystemClock(); SqliteBench db = new SqliteBench(dir)) {
            McpTasksBurnDown burnDown = new McpTasksBurnDown(db, clock);
            burnDown.prepareTemplate("tpl", 40);
            Figure mine = burnDown.run("tpl", "mine", "mcp-tasks", 1,
                    BenchMain.withTick(RuntimeSettings.defaults(), Duration.ofMillis(1)), 40, Duration.ofSeconds(30));
            Figure theirs = new DbSchedulerBurnDown(db).run("theirs", DbSchedulerBurnDown.FAST_FETCH, 40,
                    Duration.ofSeconds(30));

            assertThat(mine.details()).containsEntry("finished", 40L).containsEntry("time_boxed", false);
            assertThat(mine.details().get("statuses_after")).isEqualTo(Map.of("completed", 40L));
            assertThat(theirs.details()).containsEntry("finished", 40L).containsEntry("handler_calls", 40L);
            assertThat(mine.value()).isPositive();
            assertThat(Ratios.of(List.of(mine, theirs))).singleElement()
                    .satisfies(ratio -> assertThat(ratio.value()).isEqualTo(
                            McpTasksBurnDown.round(mine.value() / theirs.value())));
            assertThat(Table.render(List.of(mine, theirs))).contains("mcp-tasks").contains("db-scheduler");
        }
    }

    @Test
    void theLatencyProbeSeesEverySubmitClaimed() throws Exception {
        try (SystemClock clock = new SystemClock(); SqliteBench db = new SqliteBench(dir)) {
            Figure latency = new SubmitLatency(db, clock).run("latency", 2);

            assertThat(latency.details()).containsEntry("samples", 2).containsEntry("not_claimed_within_5s", 0);
            assertThat(latency.value()).isPositive().isLessThan(5_000);
        }
    }

    @Test
    void percentilesAreNearestRank() {
        double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(SubmitLatency.percentile(sorted, 50)).isEqualTo(5);
        assertThat(SubmitLatency.percentile(sorted, 95)).isEqualTo(10);
        assertThat(SubmitLatency.percentile(sorted, 99)).isEqualTo(10);
    }

    @Test
    void quickScalesTheRunDown() {
        BenchOptions quick = BenchOptions.parse("--quick");
        BenchOptions full = BenchOptions.parse();

        assertThat(quick.tasks()).isEqualTo(1_000);
        assertThat(full.tasks()).isEqualTo(10_000);
        assertThat(BenchOptions.parse("--db", "postgres", "--tasks", "7").databases()).containsExactly("postgres");
    }
}
