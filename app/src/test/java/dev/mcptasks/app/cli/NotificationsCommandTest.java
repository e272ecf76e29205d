package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.TaskRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code notifications list} and {@code notifications replay} against the in-memory store. */
class NotificationsCommandTest {
    private static final WorkerId WORKER = WorkerId.of("w1");

    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(dir);
    }

    private static JsonNode json(String text) throws Exception {
        return TaskJson.MAPPER.readTree(text);
    }

    /** A task cancelled before it was sent: its cancelled event (version 1) is the one due delivery. */
    private TaskId cancelledTask(String server, String tool) {
        TaskId id = cli.ids.newTaskId();
        cli.repository.create(new NewTask(id, server, tool, "{}", "mcp-tasks", null));
        cli.repository.requestCancel(id);
        return id;
    }

    /** Claims the one due delivery (of {@code id}), sends it {@code sends} times and dead-letters it. */
    private void deadLetter(TaskId id, int sends, String error) {
        for (int send = 1; send <= sends; send++) {
            List<NotificationClaim> claims = cli.repository.claimNotifications(
                    new NotificationClaimRequest(WORKER, 10, Duration.ofSeconds(30)));
            assertThat(claims).extracting(NotificationClaim::taskId).containsExactly(id);
            assertThat(cli.repository.markDispatched(claims.get(0))).isTrue();
            if (send < sends) {
                assertThat(cli.repository.retryNotification(claims.get(0), "HTTP 500", cli.clock.now(), true))
                        .isTrue();
            } else {
                assertThat(cli.repository.deadLetterNotification(claims.get(0), error)).isTrue();
            }
        }
    }

    private TaskRecord.Outbox outbox(TaskId id) {
        return cli.repository.find(id).orElseThrow().outbox();
    }

    @Test
    void listShowsDeadLettersNewestFirstWithVersionAttemptsErrorAndWhen() throws Exception {
        TaskId older = cancelledTask("local", "research");
        deadLetter(older, 5, "failed 5 times, last: HTTP 500\nretry later");
        String olderDied = cli.clock.now().toString();
        cli.clock.advance(Duration.ofMinutes(2));
        TaskId newer = cancelledTask("remote", "echo");
        deadLetter(newer, 1, "gone: HTTP 410");
        cancelledTask("local", "quiet");

        assertThat(cli.run("notifications", "list")).as(cli.err()).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("TASK").contains("SERVER", "TOOL", "VERSION", "ATTEMPTS", "DIED",
                "ERROR");
        assertThat(lines.get(1)).startsWith(newer.value()).contains("remote", "echo", "gone: HTTP 410");
        assertThat(lines.get(2)).startsWith(older.value()).contains("local", "research", " 1 ", " 5 ", olderDied,
                "failed 5 times, last: HTTP 500 retry later");

        assertThat(cli.run("notifications", "list", "--json", "--limit", "1")).as(cli.err()).isZero();
        JsonNode array = json(cli.out());
        assertThat(array).hasSize(1);
        JsonNode first = array.get(0);
        assertThat(first.get("id").asText()).isEqualTo(newer.value());
        assertThat(first.get("server").asText()).isEqualTo("remote");
        assertThat(first.get("tool").asText()).isEqualTo("echo");
        assertThat(first.get("eventVersion").asLong()).isEqualTo(1);
        assertThat(first.get("attempts").asInt()).isEqualTo(1);
        assertThat(first.get("error").asText()).isEqualTo("gone: HTTP 410");
        assertThat(first.get("deadLetteredAt").asText()).isEqualTo(cli.clock.now().toString());

        assertThat(cli.run("notifications", "list", "--limit", "0")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("limit");
    }

    @Test
    void replayMakesOneDeadLetterDeliverableAndARepeatChangesNothing() throws Exception {
        TaskId id = cancelledTask("local", "research");
        deadLetter(id, 2, "failed 2 times, last: HTTP 500");

        assertThat(cli.run("notifications", "replay", id.value())).as(cli.err()).isZero();
        assertThat(cli.out()).isEqualTo("replayed " + id.value() + " (local/research, event version 1)\n");
        assertThat(outbox(id).status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(outbox(id).nextAt()).isEqualTo(cli.clock.now());
        assertThat(outbox(id).attemptCount()).isZero();
        TaskRecord replayed = cli.repository.find(id).orElseThrow();

        assertThat(cli.run("notifications", "replay", id.value(), "--json")).as(cli.err()).isZero();
        JsonNode answer = json(cli.out());
        assertThat(answer.get("id").asText()).isEqualTo(id.value());
        assertThat(answer.get("outcome").asText()).isEqualTo("not_dead");
        assertThat(cli.repository.find(id).orElseThrow()).isEqualTo(replayed);
        assertThat(cli.run("notifications", "replay", id.value())).isZero();
        assertThat(cli.out()).isEqualTo(id.value() + " has no dead letter to replay (notification pending)\n");

        assertThat(cli.run("notifications", "replay", "task-missing")).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(cli.err()).isEqualTo("mcp-tasks: no such task: task-missing\n");
        assertThat(cli.run("notifications", "list", "--json")).isZero();
        assertThat(json(cli.out())).isEmpty();
    }

    @Test
    void replayAllReplaysEveryDeadLetterAcrossPages() throws Exception {
        List<TaskId> dead = new ArrayList<>();
        for (int i = 0; i < NotificationsReplayCommand.PAGE + 5; i++) {
            TaskId id = cancelledTask("local", "job-" + i);
            deadLetter(id, 1, "gone: HTTP 404");
            dead.add(id);
            cli.clock.advance(Duration.ofMillis(1));
        }
        TaskId pending = cancelledTask("local", "pending");

        assertThat(cli.run("notifications", "replay", "--all")).as(cli.err()).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(dead.size() + 1);
        assertThat(lines.get(0)).isEqualTo("replayed " + dead.get(dead.size() - 1).value() + " (local/job-"
                + (dead.size() - 1) + ", event version 1)");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("replayed " + dead.size() + " dead letters");
        for (TaskId id : dead) {
            assertThat(outbox(id).status()).as("outbox of %s", id).isEqualTo(NotificationStatus.PENDING);
        }
        assertThat(outbox(pending).status()).isEqualTo(NotificationStatus.PENDING);

        assertThat(cli.run("notifications", "replay", "--all", "--json")).as(cli.err()).isZero();
        assertThat(json(cli.out())).isEmpty();
        assertThat(cli.run("notifications", "replay", "--all")).isZero();
        assertThat(cli.out()).isEqualTo("replayed 0 dead letters\n");
    }

    @Test
    void replayNeedsEitherOneTaskOrAll() {
        assertThat(cli.run("notifications", "replay")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).startsWith("mcp-tasks: ").contains("TASK_ID", "--all");
        assertThat(cli.run("notifications", "replay", "task-000001", "--all")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).startsWith("mcp-tasks: ").contains("mutually exclusive");
        assertThat(cli.run("notifications")).isZero();
        assertThat(cli.out()).contains("list", "replay");
    }
}
