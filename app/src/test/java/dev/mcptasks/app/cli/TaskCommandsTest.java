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
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskCommandsTest {
    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(dir);
    }

    private JsonNode json(String text) throws Exception {
        return TaskJson.MAPPER.readTree(text);
    }

    @Test
    void submitPersistsAPendingTaskAndPrintsItsId() throws Exception {
        assertThat(cli.run("submit", "local", "research", "--args", "{\"topic\": \"leases\"}")).isZero();
        assertThat(cli.out()).isEqualTo("task-000001\n");

        assertThat(cli.run("submit", "remote", "echo", "--ttl-ms", "5000", "--json")).isZero();
        assertThat(json(cli.out()).get("id").asText()).isEqualTo("task-000002");

        var first = cli.repository.find(TaskId.of("task-000001")).orElseThrow();
        assertThat(first.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(first.definition().argumentsJson()).isEqualTo("{\"topic\": \"leases\"}");
        assertThat(first.definition().requestedTtlMs()).isEqualTo(60_000L);
        assertThat(first.definition().driver()).isEqualTo("mcp-tasks");
        assertThat(cli.repository.find(TaskId.of("task-000002")).orElseThrow().definition().requestedTtlMs())
                .isEqualTo(5000L);
    }

    @Test
    void submitRejectsBadInputWithExitTwo() {
        assertThat(cli.run("submit", "nowhere", "echo")).isEqualTo(2);
        assertThat(cli.err()).isEqualTo("mcp-tasks: server 'nowhere' is not configured\n");

        assertThat(cli.run("submit", "local", "echo", "--args", "[1]")).isEqualTo(2);
        assertThat(cli.err()).contains("arguments must be a JSON object");

        assertThat(cli.run("submit", "local", "echo", "--args", "{bad")).isEqualTo(2);
        assertThat(cli.run("submit", "local")).isEqualTo(2);
        assertThat(cli.err()).startsWith("mcp-tasks: Missing required parameter: 'TOOL'").doesNotContain("\n\n");
        assertThat(cli.repository.list(new dev.mcptasks.ports.repository.TaskQuery(null, null, 10, null))).isEmpty();
    }

    @Test
    void listShowsNewestFirstAndFilters() throws Exception {
        cli.run("submit", "local", "a");
        cli.run("submit", "remote", "b");
        cli.run("submit", "local", "c");
        cli.run("cancel", "task-000003");

        assertThat(cli.run("list")).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("ID").contains("STATUS", "SERVER", "TOOL", "UPDATED", "MESSAGE");
        assertThat(lines.get(1)).startsWith("task-000003").contains("cancelled");
        assertThat(lines.get(3)).startsWith("task-000001").contains("pending", "local");

        assertThat(cli.run("list", "--server", "local", "--status", "pending", "--json")).isZero();
        JsonNode array = json(cli.out());
        assertThat(array).hasSize(1);
        assertThat(array.get(0).get("id").asText()).isEqualTo("task-000001");
        assertThat(array.get(0).get("status").asText()).isEqualTo("pending");

        assertThat(cli.run("list", "--limit", "1", "--json")).isZero();
        assertThat(json(cli.out())).hasSize(1);
        assertThat(cli.run("list", "--status", "done")).isEqualTo(2);
        assertThat(cli.err()).contains("unknown task status 'done'");
        assertThat(cli.run("list", "--limit", "0")).isEqualTo(2);
    }

    @Test
    void listShowsAFinishedTasksOutcomeNotItsLastProgress() throws Exception {
        cli.run("submit", "local", "a");
        cli.repository.applySubmitted(claim(ClaimPhase.SUBMIT, WorkerId.of("w1")).claim(), new SubmitWrite(
                "remote-1", new StoredSnapshot(TaskStatus.WORKING, "step 9 of 10", null, false, null, null, null),
                null, "2025-11-25", null, cli.clock.now(), null));
        assertThat(cli.run("list")).isZero();
        assertThat(cli.out()).contains("step 9 of 10");
        cli.repository.applyOutcome(claim(ClaimPhase.POLL, WorkerId.of("w1")).claim(), new OutcomeWrite(
                new StoredSnapshot(TaskStatus.COMPLETED, null,
                        "{\"content\":[{\"type\":\"text\",\"text\":\"the report,\\nin two lines\"}]}", false,
                        null, null, null), null, null, null));

        assertThat(cli.run("list")).isZero();
        assertThat(cli.out()).contains("result: the report, in two lines").doesNotContain("step 9");
    }

    @Test
    void showPrintsStatusResultAttemptsLeaseCancelAndNotification() throws Exception {
        cli.run("submit", "local", "research");
        TaskId id = TaskId.of("task-000001");
        WorkerId worker = WorkerId.of("w1");
        ClaimedTask claimed = claim(ClaimPhase.SUBMIT, worker);
        cli.repository.applySubmitted(claimed.claim(), new SubmitWrite("remote-1",
                new StoredSnapshot(TaskStatus.WORKING, "started", null, false, null, null, null), null,
                "2025-11-25", worker, cli.clock.now(), null));
        ClaimedTask poll = claim(ClaimPhase.POLL, worker);

        assertThat(cli.run("show", id.value())).isZero();
        assertThat(cli.out()).contains("status:            working", "status message:    started",
                "remote task:       remote-1", "attempts:          submit 1, poll 1, cancel 0",
                "lease:             poll by w1 until " + poll.claim().expiresAt(), "cancel:            not requested",
                "notification:      none");

        cli.repository.applyOutcome(poll.claim(), new OutcomeWrite(new StoredSnapshot(TaskStatus.COMPLETED, null,
                "{\"content\":[]}", false, null, null, null), null, null, null));
        assertThat(cli.run("show", id.value(), "--json")).isZero();
        JsonNode task = json(cli.out());
        assertThat(task.get("status").asText()).isEqualTo("completed");
        assertThat(task.get("result").get("content").isArray()).isTrue();
        assertThat(task.get("attempts").get("poll").asInt()).isEqualTo(1);
        assertThat(task.get("lease").isNull()).isTrue();
        assertThat(task.get("cancelRequestedAt").isNull()).isTrue();
        assertThat(task.get("notification").get("status").asText()).isNotEmpty();
        assertThat(task.get("arguments").isObject()).isTrue();

        assertThat(cli.run("show", "task-999999")).isEqualTo(4);
        assertThat(cli.err()).isEqualTo("mcp-tasks: no such task: task-999999\n");
    }

    @Test
    void cancelPersistsTheRequestAndARepeatIsHarmless() throws Exception {
        cli.run("submit", "local", "a");
        claimAndSubmit();

        assertThat(cli.run("cancel", "task-000001")).isZero();
        assertThat(cli.out()).isEqualTo("cancel requested for task-000001\n");
        assertThat(cli.run("cancel", "task-000001", "--json")).isZero();
        assertThat(json(cli.out()).get("outcome").asText()).isEqualTo("already_requested");
        assertThat(cli.repository.find(TaskId.of("task-000001")).orElseThrow().control().cancelRequestedAt())
                .isNotNull();

        cli.run("submit", "local", "b");
        assertThat(cli.run("cancel", "task-000002")).isZero();
        assertThat(cli.out()).contains("(it had not been sent)");
        assertThat(cli.run("cancel", "task-000002")).isZero();
        assertThat(cli.out()).contains("had already ended");
        assertThat(cli.run("cancel", "task-000404")).isEqualTo(4);
    }

    @Test
    void resultExitCodesFollowTheTaskStatus() {
        assertThat(cli.run("result", "task-000001")).isEqualTo(4);

        cli.run("submit", "local", "a");
        assertThat(cli.run("result", "task-000001")).isEqualTo(3);
        assertThat(cli.err()).contains("task task-000001 is still pending");

        ClaimedTask claimed = claimAndSubmit();
        cli.repository.applyOutcome(claim(ClaimPhase.POLL, WorkerId.of("w1")).claim(), new OutcomeWrite(
                StoredSnapshot.failed("remote_failed", "the tool broke"), null, null, null));
        assertThat(claimed).isNotNull();
        assertThat(cli.run("result", "task-000001")).isEqualTo(1);
        assertThat(cli.err()).isEqualTo("mcp-tasks: task task-000001 failed (remote_failed): the tool broke\n");

        cli.run("submit", "local", "b");
        cli.run("cancel", "task-000002");
        assertThat(cli.run("result", "task-000002")).isEqualTo(1);
        assertThat(cli.err()).contains("task task-000002 was cancelled");
    }

    @Test
    void resultWaitsByPollingTheStoreUntilTheTaskEnds() {
        cli.run("submit", "local", "a");
        claimAndSubmit();
        int[] sleeps = {0};
        cli.sleeper = duration -> {
            assertThat(duration).isLessThanOrEqualTo(ResultCommand.POLL);
            cli.clock.advance(duration);
            if (++sleeps[0] == 3) {
                cli.repository.applyOutcome(claim(ClaimPhase.POLL, WorkerId.of("w1")).claim(), new OutcomeWrite(
                        new StoredSnapshot(TaskStatus.COMPLETED, null, "{\"text\":\"report\"}", false, null, null,
                                null), null, null, null));
            }
        };

        assertThat(cli.run("result", "task-000001", "--wait", "60")).isZero();
        assertThat(cli.out()).isEqualTo("{\"text\":\"report\"}\n");
        assertThat(sleeps[0]).isEqualTo(3);
    }

    @Test
    void resultGivesUpAtTheDeadline() {
        cli.run("submit", "local", "a");
        long before = cli.clock.nanoTime();

        assertThat(cli.run("result", "task-000001", "--wait", "2")).isEqualTo(3);
        assertThat(Duration.ofNanos(cli.clock.nanoTime() - before)).isEqualTo(Duration.ofSeconds(2));
        assertThat(cli.run("result", "task-000001", "--wait", "-1")).isEqualTo(2);
    }

    @Test
    void workersShowsLiveAndStaleWorkersWithTheirClaims() throws Exception {
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("old"), "h1", 1, cli.clock.now()));
        cli.clock.advance(Duration.ofMinutes(5));
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("w1"), "h2", 2, cli.clock.now()));
        cli.run("submit", "local", "a");
        claim(ClaimPhase.SUBMIT, WorkerId.of("w1"));

        assertThat(cli.run("workers")).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines.get(0)).startsWith("WORKER").contains("STATE", "CLAIMS");
        assertThat(lines.get(1)).startsWith("old").contains("stale", "none");
        assertThat(lines.get(2)).startsWith("w1").contains("live", "1: task-000001/submit");

        assertThat(cli.run("workers", "--json")).isZero();
        JsonNode workers = json(cli.out());
        assertThat(workers.get(1).get("state").asText()).isEqualTo("live");
        assertThat(workers.get(1).get("claims").get(0).get("task").asText()).isEqualTo("task-000001");
        assertThat(workers.get(0).get("claims")).isEmpty();
    }

    @Test
    void workersHidesWorkersGoneForAnHourUnlessAll() throws Exception {
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("crashed"), "h1", 1, cli.clock.now()));
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("holder"), "h1", 2, cli.clock.now()));
        cli.run("submit", "local", "a");
        claim(ClaimPhase.SUBMIT, WorkerId.of("holder"));
        cli.clock.advance(WorkersCommand.GONE_AFTER.plusMinutes(1));
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("w1"), "h2", 3, cli.clock.now()));

        assertThat(cli.run("workers")).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).as("a worker holding a claim stays listed").startsWith("holder").contains("stale");
        assertThat(lines.get(2)).startsWith("w1").contains("live");
        assertThat(lines.get(3)).isEqualTo("1 worker not seen for over an hour and holding no claim is hidden"
                + " ('workers --all' lists them)");

        assertThat(cli.run("workers", "--all", "--json")).isZero();
        JsonNode listed = json(cli.out());
        assertThat(List.of(listed.get(0).get("id").asText(), listed.get(1).get("id").asText(),
                listed.get(2).get("id").asText())).containsExactly("crashed", "holder", "w1");
    }

    @Test
    void workersJudgesLivenessByTheStoresClockNotTheCliClock() throws Exception {
        ManualClock store = new ManualClock(cli.clock.now().plus(Duration.ofHours(1)));
        cli = new CliHarness(dir, store);
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("old"), "h1", 1, store.now()));
        store.advance(Duration.ofMinutes(5));
        cli.repository.heartbeat(new WorkerInfo(WorkerId.of("w1"), "h2", 2, store.now()));

        // the CLI's clock is an hour behind the store's: by the store, "old" is 5 minutes stale
        assertThat(cli.run("workers")).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines.get(1)).startsWith("old").contains("stale");
        assertThat(lines.get(2)).startsWith("w1").contains("live");
        assertThat(cli.run("workers", "--json")).isZero();
        assertThat(json(cli.out()).findValuesAsText("state")).containsExactly("stale", "live");

        // now an hour ahead of the store's: "w1" heartbeated at the store's now and is live, whatever the CLI says
        cli.clock.advance(Duration.ofHours(2));
        assertThat(cli.run("workers", "--json")).isZero();
        assertThat(json(cli.out()).findValuesAsText("state")).containsExactly("stale", "live");
    }

    @Test
    void showNamesTheCreatorAndWhyACancelWasNotSent() throws Exception {
        cli.run("submit", "remote", "research");
        TaskId id = TaskId.of("task-000001");
        WorkerId worker = WorkerId.of("w1");
        cli.repository.applySubmitted(claim(ClaimPhase.SUBMIT, worker).claim(), new SubmitWrite("remote-1",
                new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null), null, "2025-11-25",
                null, cli.clock.now(), null));
        cli.run("cancel", id.value());
        String reason = "server does not support tasks/cancel: no tasks.cancel capability";
        assertThat(cli.repository.abandonCancel(claim(ClaimPhase.CANCEL, WorkerId.of("w2")).claim(), reason,
                cli.clock.now())).isTrue();

        assertThat(cli.run("show", id.value())).isZero();
        assertThat(cli.out()).contains("created by:        w1\n", "endpoint owner:    -\n",
                "last cancel error: " + reason + "\n", "cancel:            not sent: " + reason + "\n");

        assertThat(cli.run("show", id.value(), "--json")).isZero();
        JsonNode task = json(cli.out());
        assertThat(task.get("createdBy").asText()).isEqualTo("w1");
        assertThat(task.get("endpointOwner").isNull()).isTrue();
        assertThat(task.get("lastCancelError").asText()).isEqualTo(reason);
        assertThat(cli.run("list", "--json")).isZero();
        assertThat(json(cli.out()).get(0).get("createdBy").asText()).isEqualTo("w1");
    }

    @Test
    void showBeforeCreationHasNoCreator() throws Exception {
        cli.run("submit", "local", "research");
        assertThat(cli.run("show", "task-000001")).isZero();
        assertThat(cli.out()).contains("created by:        -\n", "cancel:            not requested\n");
        assertThat(cli.run("show", "task-000001", "--json")).isZero();
        assertThat(json(cli.out()).get("createdBy").isNull()).isTrue();
    }

    @Test
    void noCommandPrintsTheUpstreamSessionTheTaskWasCreatedIn() {
        cli.run("submit", "remote", "research");
        String session = "c0ffee-upstream-session-4b1d";
        cli.repository.applySubmitted(claim(ClaimPhase.SUBMIT, WorkerId.of("w1")).claim(), new SubmitWrite(
                "remote-1", new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null), null,
                "2025-11-25", null, cli.clock.now(), null, null, session));
        assertThat(cli.repository.find(TaskId.of("task-000001")).orElseThrow().state().endpointSession())
                .isEqualTo(session);

        for (List<String> command : List.of(List.of("show", "task-000001"), List.of("show", "task-000001", "--json"),
                List.of("list"), List.of("list", "--json"))) {
            assertThat(cli.run(command.toArray(String[]::new))).as("%s", command).isZero();
            assertThat(cli.out()).as("%s", command).contains("remote").doesNotContain(session);
        }
    }

    private ClaimedTask claim(ClaimPhase phase, WorkerId worker) {
        List<ClaimedTask> claimed = cli.repository.claimControl(new ControlClaimRequest(phase, worker, 1,
                Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of()));
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    private ClaimedTask claimAndSubmit() {
        ClaimedTask claimed = claim(ClaimPhase.SUBMIT, WorkerId.of("w1"));
        cli.repository.applySubmitted(claimed.claim(), new SubmitWrite("remote-1",
                new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null), null, "2025-11-25",
                null, cli.clock.now(), null));
        return claimed;
    }
}
