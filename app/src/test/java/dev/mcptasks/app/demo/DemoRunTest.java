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
                .doesNotContain("FAILED");
    }

    @Test
    void theProgressLineCountsEveryStatus() {
        String line = ProgressView.line(1_500_000_000L, java.util.Map.of(dev.mcptasks.domain.TaskStatus.COMPLETED, 3L),
                java.util.List.of(new dev.mcptasks.core.runtime.RuntimeMetrics(5, 1, 7, 2, 0, 0, 1, 8)), 4);
        assertThat(line).isEqualTo("   1.5s  pending 0 working 0 input_required 0 completed 3 failed 0 cancelled 0"
                + " | renewals 7, fenced writes 2, recoveries 4");
    }
}
