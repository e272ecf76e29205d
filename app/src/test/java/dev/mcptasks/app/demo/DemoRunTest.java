package dev.mcptasks.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.e2e.MetricsScrape;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The whole demo, as {@code bin/mcp-tasks demo} runs it (plain output, no terminal, its admin listener on a free
 * port): its {@code /metrics} is scraped while it runs.
 */
class DemoRunTest {
    private static final Pattern ADMIN = Pattern.compile("metrics http://127\\.0\\.0\\.1:(\\d+)/metrics");

    @Test
    void theDemoEndsWithEveryInvariantHoldingAndItsMetricsMoveWhileItRuns() throws Exception {
        OutputWatch out = new OutputWatch();
        CompletableFuture<Integer> demo = CompletableFuture.supplyAsync(() -> {
            try {
                return new DemoRun(new PrintWriter(out, true), false, 0).run();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });

        MetricsScrape metrics = new MetricsScrape(out.adminPort.get(60, TimeUnit.SECONDS));
        double finishedFirst = MetricsScrape.sum(metrics.scrape(), "mcp_tasks_finished_total");
        // the first task to finish may be one the demo cancels before any worker claimed it (cancelled locally, no
        // claim and no upstream request): the workers' claims and requests are waited for too
        String later = metrics.until(body -> MetricsScrape.sum(body, "mcp_tasks_finished_total") > finishedFirst
                && MetricsScrape.sum(body, "mcp_tasks_claims_total") > 0
                && MetricsScrape.sum(body, "mcp_tasks_upstream_request_seconds_count") > 0);
        assertThat(MetricsScrape.sum(later, "mcp_tasks_submitted_total")).as("every task of the demo").isEqualTo(30);
        assertThat(MetricsScrape.sum(later, "mcp_tasks_claims_total")).isPositive();
        assertThat(MetricsScrape.sum(later, "mcp_tasks_upstream_request_seconds_count")).isPositive();
        int exit = demo.get(120, TimeUnit.SECONDS);

        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString())
                .contains("worker-b crashes")
                .contains("[ok] every task is terminal (30/30)")
                .contains("[ok] every completed task has its result")
                .contains("[ok] no write from a stale claim was accepted")
                .contains("worker-b pauses").contains("refused by the fence")
                .doesNotContain("FAILED");
        Matcher refused = Pattern.compile("(\\d+) stale writes attempted, 0 accepted")
                .matcher(out.toString());
        assertThat(refused.find()).as(out.toString()).isTrue();
        assertThat(Integer.parseInt(refused.group(1))).as("at least one stale write was refused in%n%s", out)
                .isPositive();
        Matcher summary = Pattern.compile("(\\d+) stale writes refused by the fence")
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

    /** The demo's output, which tells the admin listener's port as soon as the demo prints it. */
    private static final class OutputWatch extends StringWriter {
        final CompletableFuture<Integer> adminPort = new CompletableFuture<>();

        @Override
        public void write(String text, int offset, int length) {
            super.write(text, offset, length);
            Matcher port = ADMIN.matcher(getBuffer());
            if (!adminPort.isDone() && port.find()) {
                adminPort.complete(Integer.parseInt(port.group(1)));
            }
        }
    }
}
