package dev.mcptasks.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The whole demo, as {@code bin/mcp-tasks demo} runs it (plain output, no terminal). */
class DemoRunTest {
    @Test
    void theDemoEndsWithEveryInvariantHolding() throws Exception {
        StringWriter out = new StringWriter();

        int exit = new DemoRun(new PrintWriter(out, true), false).run();

        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString())
                .contains("worker-b crashes")
                .contains("[ok] every task is terminal (30/30)")
                .contains("[ok] every completed task has its result")
                .contains("[ok] no write from a stale claim was accepted")
                .contains("worker-b pauses").contains("refused by the fence")
                .doesNotContain("FAILED");
        java.util.regex.Matcher refused = java.util.regex.Pattern.compile("(\\d+) stale writes attempted, 0 accepted")
                .matcher(out.toString());
        assertThat(refused.find()).as(out.toString()).isTrue();
        assertThat(Integer.parseInt(refused.group(1))).as("at least one stale write was refused in%n%s", out)
                .isPositive();
        java.util.regex.Matcher summary = java.util.regex.Pattern.compile("(\\d+) stale writes refused by the fence")
                .matcher(out.toString());
        assertThat(summary.find()).isTrue();
        assertThat(Integer.parseInt(summary.group(1))).isPositive();
        // an outcome is explained only when it occurred
        if (!out.toString().contains("failed/remote_task_lost")) {
            assertThat(out.toString()).doesNotContain("remote_task_lost:");
        }
    }

    @Test
    void theProgressLineCountsEveryStatus() {
        String line = ProgressView.line(1_500_000_000L, java.util.Map.of(dev.mcptasks.domain.TaskStatus.COMPLETED, 3L),
                java.util.List.of(new dev.mcptasks.core.runtime.RuntimeMetrics(5, 1, 7, 2, 0, 0, 1, 8)), 4, 1);
        assertThat(line).isEqualTo("   1.5s  pending 0 working 0 input_required 0 completed 3 failed 0 cancelled 0"
                + " | renewals 7, fenced writes 2, recoveries 4, stale writes refused 1");
    }
}
