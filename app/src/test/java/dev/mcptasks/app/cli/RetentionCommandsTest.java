package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code purge} counts or deletes finished tasks only; every operator action shows in {@code audit}. */
class RetentionCommandsTest {
    private static final String OPERATOR = System.getProperty("user.name");

    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(dir);
    }

    @Test
    void purgeCountsOnADryRunThenDeletesOnlyFinishedTasksOlderThanTheAge() {
        assertThat(cli.run("submit", "remote", "echo")).isZero();
        assertThat(cli.run("submit", "remote", "echo")).isZero();
        assertThat(cli.run("submit", "remote", "echo")).isZero();
        assertThat(cli.run("cancel", "task-000001")).isZero();
        assertThat(cli.run("cancel", "task-000002")).isZero();
        deliverAttentionEvents();
        cli.clock.advance(Duration.ofHours(2));

        assertThat(cli.run("purge", "--older-than", "1h", "--dry-run")).isZero();
        assertThat(cli.out()).isEqualTo("would purge 2 finished tasks older than 1h\n");
        assertThat(cli.repository.find(TaskId.of("task-000001"))).as("a dry run deletes nothing").isPresent();

        assertThat(cli.run("purge", "--older-than", "3h")).isZero();
        assertThat(cli.out()).isEqualTo("purged 0 finished tasks older than 3h\n");
        assertThat(cli.run("purge", "--older-than", "1h", "--status", "failed")).isZero();
        assertThat(cli.out()).isEqualTo("purged 0 failed tasks older than 1h\n");
        assertThat(cli.run("purge", "--older-than", "60m", "--status", "cancelled")).isZero();
        assertThat(cli.out()).isEqualTo("purged 2 cancelled tasks older than 1h\n");

        assertThat(cli.repository.find(TaskId.of("task-000001"))).isEmpty();
        assertThat(cli.repository.find(TaskId.of("task-000002"))).isEmpty();
        assertThat(cli.repository.find(TaskId.of("task-000003"))).as("pending: never purged").isPresent();
    }

    @Test
    void badPurgeArgumentsAreOneLineUsageErrors() {
        assertThat(cli.run("purge", "--older-than", "7x")).isEqualTo(2);
        assertThat(cli.err()).contains("'7x' is not a duration").doesNotContain("\n\n");
        assertThat(cli.err().strip().lines()).hasSize(1);
        assertThat(cli.run("purge", "--older-than", "1d", "--status", "working")).isEqualTo(2);
        assertThat(cli.err()).contains("'working' is not a finished status");
        assertThat(cli.run("purge")).isEqualTo(2);
        assertThat(cli.err()).contains("--older-than");
        assertThat(cli.run("audit", "--limit", "0")).isEqualTo(2);
        assertThat(cli.err()).isEqualTo("mcp-tasks: --limit must be between 1 and 10000, was 0\n");
    }

    @Test
    void everyActionOfAnOperatorShowsInTheAuditLog() throws Exception {
        assertThat(cli.run("submit", "remote", "echo")).isZero();
        assertThat(cli.run("cancel", "task-000001")).isZero();
        assertThat(cli.run("answer", "task-000001", "k", "--json", "{}")).isNotZero();
        deliverAttentionEvents();
        assertThat(cli.run("purge", "--older-than", "1d")).isZero();

        assertThat(cli.run("audit", "--json")).isZero();
        JsonNode records = TaskJson.MAPPER.readTree(cli.out());
        List<String> actions = new ArrayList<>();
        for (JsonNode record : records) {
            actions.add(record.path("action").asText() + " " + record.path("taskId").asText("-") + " "
                    + record.path("detail").asText());
            assertThat(record.path("principal").asText()).isEqualTo(OPERATOR);
            assertThat(record.path("channel").asText()).isEqualTo("cli");
            assertThat(record.path("at").asText()).isEqualTo(cli.clock.now().toString());
        }
        assertThat(actions).containsExactly("purge - 0 finished tasks older than 1d",
                "answer_input task-000001 k: rejected", "cancel_request task-000001 cancelled_locally",
                "submit task-000001 remote/echo");

        assertThat(cli.run("audit", "--task", "task-000001", "--principal", OPERATOR, "--limit", "1")).isZero();
        assertThat(cli.out()).contains("answer_input").doesNotContain("cancel_request");
        assertThat(cli.run("audit", "--principal", "somebody-else")).isZero();
        assertThat(cli.out().strip().lines()).hasSize(1);
    }

    /** The log sink of a worker: the attention events of cancelled tasks are delivered, so they may be purged. */
    private void deliverAttentionEvents() {
        cli.repository.claimNotifications(new NotificationClaimRequest(WorkerId.of("w"), 100, Duration.ofMinutes(1)))
                .forEach(claim -> {
                    cli.repository.markDispatched(claim);
                    cli.repository.finishNotification(claim);
                });
    }
}
