package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.SubmitWrite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code answer} and what {@code show} and {@code list} say about input requests and protocol generations. */
class AnswerCommandTest {
    private static final String REQUESTS = "{\"confirm\":{\"method\":\"elicitation/create\",\"params\":{\"message\":"
            + "\"Deploy to prod?\"}},\"roots\":{\"method\":\"roots/list\"}}";
    private static final String ACCEPT = "{\"action\":\"accept\",\"content\":{\"ok\":true}}";

    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(dir);
    }

    @Test
    void showListsTheRequestsAndTheExactAnswerCommandAndAnswerStoresIt() throws Exception {
        String id = waiting("2026-07-28");

        assertThat(cli.run("show", id)).isZero();
        assertThat(cli.out()).contains(
                "protocol:          2026-07-28 (tasks extension)\n",
                "input request:     confirm: elicitation/create \"Deploy to prod?\"\n",
                "input request:     roots: roots/list\n",
                "pending answers:   -\n",
                "answer:            mcp-tasks answer " + id + " confirm --json"
                        + " '{\"action\":\"accept\",\"content\":{...}}' (or --file PATH)\n",
                "answer:            mcp-tasks answer " + id + " roots --json '{\"roots\":[{\"uri\":\"file:///...\"}]}'");

        assertThat(cli.run("answer", id, "confirm", "--json", ACCEPT)).isZero();
        assertThat(cli.out()).isEqualTo("answer to 'confirm' stored for " + id
                + "; the worker that serves the task delivers it\n");
        assertThat(cli.repository.find(TaskId.of(id)).orElseThrow().state().inputResponsesJson())
                .isEqualTo("{\"confirm\":" + ACCEPT + "}");

        assertThat(cli.run("show", id)).isZero();
        assertThat(cli.out()).contains(
                "input request:     confirm: elicitation/create \"Deploy to prod?\" [answer waiting to be delivered]\n",
                "pending answers:   confirm\n")
                .doesNotContain("answer " + id + " confirm");

        assertThat(cli.run("show", id, "--json")).isZero();
        JsonNode task = TaskJson.MAPPER.readTree(cli.out());
        assertThat(task.get("generation").asText()).isEqualTo("tasks_extension_2026_07_28");
        assertThat(task.get("answerable").asBoolean()).isTrue();
        assertThat(task.get("inputRequests").get(0).get("key").asText()).isEqualTo("confirm");
        assertThat(task.get("inputRequests").get(0).get("method").asText()).isEqualTo("elicitation/create");
        assertThat(task.get("inputRequests").get(0).get("message").asText()).isEqualTo("Deploy to prod?");
        assertThat(task.get("inputRequests").get(1).get("message").isNull()).isTrue();
        assertThat(task.get("pendingAnswers")).hasSize(1);
        assertThat(task.get("pendingAnswers").get(0).asText()).isEqualTo("confirm");
        assertThat(task.get("inputResponses").get("confirm").get("action").asText()).isEqualTo("accept");

        assertThat(cli.run("list", "--json")).isZero();
        JsonNode listed = TaskJson.MAPPER.readTree(cli.out()).get(0);
        assertThat(listed.get("generation").asText()).isEqualTo("tasks_extension_2026_07_28");
        assertThat(listed.get("inputRequests")).hasSize(2);
        assertThat(listed.get("pendingAnswers").get(0).asText()).isEqualTo("confirm");
    }

    @Test
    void aSecondAnswerToTheSameKeyIsRefusedAndTheFirstStands() {
        String id = waiting("2026-07-28");
        cli.run("answer", id, "confirm", "--json", ACCEPT);

        assertThat(cli.run("answer", id, "confirm", "--json", "{\"action\":\"decline\"}")).isEqualTo(1);
        assertThat(cli.err()).isEqualTo("mcp-tasks: an answer to 'confirm' of task " + id + " is already waiting to be"
                + " delivered; the first one stands (this one was not stored)\n");
        assertThat(cli.repository.find(TaskId.of(id)).orElseThrow().state().inputResponsesJson()).contains("accept");
    }

    @Test
    void theAnswerCanComeFromAFile() throws Exception {
        String id = waiting("2026-07-28");
        Path file = dir.resolve("roots.json");
        Files.writeString(file, "{\n  \"roots\": [{\"uri\": \"file:///srv\"}]\n}\n");

        assertThat(cli.run("answer", id, "roots", "--file", file.toString())).isZero();
        assertThat(cli.repository.find(TaskId.of(id)).orElseThrow().state().inputResponsesJson())
                .isEqualTo("{\"roots\":{\"roots\":[{\"uri\":\"file:///srv\"}]}}");

        assertThat(cli.run("answer", id, "confirm", "--file", dir.resolve("missing.json").toString())).isEqualTo(2);
        assertThat(cli.err()).startsWith("mcp-tasks: cannot read the answer from ").contains("missing.json")
                .hasLineCount(1);
    }

    @Test
    void aMalformedAnswerIsAUsageErrorWhateverTheTask() {
        String completed = waiting("2026-07-28");
        cli.run("answer", completed, "confirm", "--json", ACCEPT);

        assertThat(cli.run("answer", "no-such-task", "confirm", "--json", "{bad")).isEqualTo(2);
        assertThat(cli.err()).startsWith("mcp-tasks: the answer is not valid JSON").hasLineCount(1);
        assertThat(cli.run("answer", completed, "confirm", "--json", "[1]")).isEqualTo(2);
        assertThat(cli.err()).startsWith("mcp-tasks: the answer must be a JSON object").hasLineCount(1);
    }

    @Test
    void badUsageAndBadAnswersExitTwo() {
        String id = waiting("2026-07-28");

        assertThat(cli.run("answer", id, "confirm")).isEqualTo(2);
        assertThat(cli.err()).contains("--json").contains("--file").hasLineCount(1);
        assertThat(cli.run("answer", id, "confirm", "--json", ACCEPT, "--file", "x.json")).isEqualTo(2);
        assertThat(cli.err()).contains("mutually exclusive").hasLineCount(1);

        assertThat(cli.run("answer", id, "nope", "--json", ACCEPT)).isEqualTo(2);
        assertThat(cli.err()).isEqualTo("mcp-tasks: task " + id + " has no input request 'nope'; its requests:"
                + " confirm, roots\n");
        assertThat(cli.run("answer", id, "confirm", "--json", "\"yes\"")).isEqualTo(2);
        assertThat(cli.err()).contains("must be a JSON object").hasLineCount(1);
        assertThat(cli.repository.find(TaskId.of(id)).orElseThrow().state().inputResponsesJson()).isNull();
    }

    @Test
    void aMissingTaskExitsFourAndATaskThatCannotTakeAnswersExitsOne() {
        assertThat(cli.run("answer", "task-000404", "confirm", "--json", ACCEPT)).isEqualTo(4);
        assertThat(cli.err()).isEqualTo("mcp-tasks: no such task: task-000404\n");

        cli.run("submit", "remote", "research");
        assertThat(cli.run("answer", "task-000001", "confirm", "--json", ACCEPT)).isEqualTo(1);
        assertThat(cli.err()).isEqualTo("mcp-tasks: task task-000001 is pending, not input_required: it waits for no"
                + " answer\n");
    }

    @Test
    void a2025TaskIsShownAsNotAnswerableFromMcpTasksAndItsAnswerIsRefused() throws Exception {
        String id = waiting("2025-11-25");

        assertThat(cli.run("show", id)).isZero();
        assertThat(cli.out()).contains("protocol:          2025-11-25 (tasks utility)\n",
                "answer:            not from mcp-tasks: the 2025-11-25 tasks protocol takes answers only on the"
                        + " server's tasks/result stream");
        assertThat(cli.run("show", id, "--json")).isZero();
        assertThat(TaskJson.MAPPER.readTree(cli.out()).get("answerable").asBoolean()).isFalse();

        assertThat(cli.run("answer", id, "confirm", "--json", ACCEPT)).isEqualTo(1);
        assertThat(cli.err()).startsWith("mcp-tasks: task " + id + " cannot be answered from mcp-tasks: the"
                + " 2025-11-25 tasks protocol").hasLineCount(1);
    }

    @Test
    void aTaskNotCreatedYetHasNoGeneration() throws Exception {
        cli.run("submit", "remote", "research");

        assertThat(cli.run("show", "task-000001")).isZero();
        assertThat(cli.out()).contains("protocol:          - (decided when the task is created)\n")
                .doesNotContain("input request:");
        assertThat(cli.run("show", "task-000001", "--json")).isZero();
        JsonNode task = TaskJson.MAPPER.readTree(cli.out());
        assertThat(task.get("generation").isNull()).isTrue();
        assertThat(task.get("inputRequests")).isEmpty();
        assertThat(task.get("answerable").asBoolean()).isFalse();
    }

    /** A task of server "remote" in input_required under {@code version}, asking {@link #REQUESTS}. */
    private String waiting(String version) {
        cli.run("submit", "remote", "deploy");
        List<ClaimedTask> claimed = cli.repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT,
                WorkerId.of("w1"), 1, Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of()));
        assertThat(cli.repository.applySubmitted(claimed.get(0).claim(), new SubmitWrite("remote-1",
                new StoredSnapshot(TaskStatus.INPUT_REQUIRED, "waiting", null, false, null, null, REQUESTS), null,
                version, null, cli.clock.now().plusSeconds(5), null))).isTrue();
        return claimed.get(0).claim().taskId().value();
    }
}
