package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.postgres.PostgresTestDatabase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.examples.CompletionCollector.Completion;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The example deployment end to end: embedded PostgreSQL (or {@code MCP_TASKS_TEST_PG_URL}) as the store, the reference
 * MCP server over Streamable HTTP as the upstream, the digest driver beside it. Waits are the sink's completion
 * futures, bounded: the sink hears of a task's end only after the row committed, so the store is read afterwards.
 */
class CustomDeploymentTest {
    private static final long WAIT_SECONDS = 60;

    private final CompletionCollector sink = new CompletionCollector();
    private final PostgresSettings database = PostgresTestDatabase.freshDatabase();
    private ReferenceServer upstream;
    private CustomDeployment deployment;

    @BeforeEach
    void start() {
        upstream = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(100));
        deployment = CustomDeployment.start(database, upstream.startHttp(0), sink);
    }

    @AfterEach
    void stop() {
        try {
            deployment.close();
        } finally {
            upstream.close();
        }
    }

    @Test
    void aTaskThroughEachDriverCompletesWithItsResultAndTheSinkHearsOfBoth() throws Exception {
        TaskRecord mcp = deployment.tasks().submit(CustomDeployment.UPSTREAM, "work",
                "{\"durationMs\": 200, \"result\": \"computed upstream\"}");
        TaskRecord local = deployment.tasks().submit(CustomDeployment.LOCAL, "sha256", "{\"text\": \"hello\"}");

        Completion mcpEnd = sink.completion(mcp.id()).get(WAIT_SECONDS, TimeUnit.SECONDS);
        Completion localEnd = sink.completion(local.id()).get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(mcpEnd).isEqualTo(new Completion(mcp.id(), "upstream", "work", TaskStatus.COMPLETED, null));
        assertThat(localEnd).isEqualTo(new Completion(local.id(), "local", "sha256", TaskStatus.COMPLETED, null));
        TaskRecord mcpRow = deployment.tasks().find(mcp.id()).orElseThrow();
        assertThat(mcpRow.state().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(mcpRow.state().remoteTaskId()).as("a native MCP task on the server").isNotNull();
        assertThat(mcpRow.state().resultJson()).contains("computed upstream");
        TaskRecord localRow = deployment.tasks().find(local.id()).orElseThrow();
        assertThat(localRow.state().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(localRow.state().remoteTaskId()).as("finished at submit, nothing remote").isNull();
        assertThat(localRow.state().resultJson())
                .contains("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
        assertThat(sink.completions()).extracting(Completion::taskId).contains(mcp.id(), local.id());
        assertThat(deployment.tasks().workers()).extracting(worker -> worker.id())
                .contains(deployment.workerId());
    }

    @Test
    void aDigestCallWithoutTextFailsTheTaskWithTheReasonAndTheSinkHearsOfIt() throws Exception {
        TaskRecord task = deployment.tasks().submit(CustomDeployment.LOCAL, "sha256", "{\"txt\": \"typo\"}");

        Completion end = sink.completion(task.id()).get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(end.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(end.error()).contains("needs a string argument 'text'");
        TaskRecord row = deployment.tasks().find(task.id()).orElseThrow();
        assertThat(row.state().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(row.state().errorCode()).isEqualTo(ErrorCodes.SUBMIT_REFUSED);
    }

    @Test
    void aTaskTheFirstDeploymentStartedIsFinishedByTheNextOnTheSameDatabase() throws Exception {
        TaskRecord task = deployment.tasks().submit(CustomDeployment.UPSTREAM, "work",
                "{\"durationMs\": 4000, \"result\": \"outlived its first worker\"}");
        TaskRecord started = AwaitTask.until(deployment.tasks(), task.id(), Duration.ofSeconds(WAIT_SECONDS),
                row -> row.state().remoteTaskId() != null);
        assertThat(started.state().status()).isEqualTo(TaskStatus.WORKING);
        // stopped while the upstream task runs on: the worker ends its calls in flight and leaves the task in the store
        deployment.close();

        CompletionCollector nextSink = new CompletionCollector();
        deployment = CustomDeployment.start(database, upstream.httpUri(), nextSink);
        Completion end = nextSink.completion(task.id()).get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(end.status()).isEqualTo(TaskStatus.COMPLETED);
        TaskRecord done = deployment.tasks().find(task.id()).orElseThrow();
        assertThat(done.state().remoteTaskId()).as("the same remote task").isEqualTo(started.state().remoteTaskId());
        assertThat(done.state().resultJson()).contains("outlived its first worker");
        assertThat(sink.completions()).as("the first deployment's sink heard nothing of it").isEmpty();
    }
}
