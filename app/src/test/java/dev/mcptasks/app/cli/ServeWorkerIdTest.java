package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --worker-id LABEL} names the worker but never reuses an id: a second start with the same label (a
 * restart while the previous start is still registered) is another worker, which cannot take the previous start's
 * process-local tasks as its own.
 */
class ServeWorkerIdTest {
    @TempDir
    Path dir;

    private CliHarness cli;
    private final List<Runnable> hooks = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        cli = new CliHarness(dir);
        cli.writeConfig("{\"mcpServers\": {\"local\": {\"command\": \"never-started\"}}}");
        cli.shutdownHooks = hooks::add;
    }

    @AfterEach
    void stopWhatIsLeft() {
        hooks.forEach(Runnable::run);
    }

    @Test
    void twoStartsWithTheSameWorkerIdAreTwoWorkers() throws Exception {
        // claimed before any worker runs: a create wakes the workers, which would otherwise take the row first
        Claim submit = claimedTask();
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> cli.run("serve", "--worker-id", "ops"));
        WorkerId firstId = awaitWorkers(1).get(0).id();
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> cli.run("serve", "--worker-id", "ops"));
        List<WorkerRecord> both = awaitWorkers(2);
        WorkerId secondId = both.stream().map(WorkerRecord::id).filter(id -> !id.equals(firstId)).findFirst()
                .orElseThrow();
        assertThat(firstId.value()).startsWith("ops:");
        assertThat(secondId.value()).startsWith("ops:");

        // a stdio task the first start created: only the first start (live) may control it
        TaskRecord owned = processLocalTaskOf(submit, firstId);
        assertThat(cli.repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL, secondId, 10,
                Duration.ofSeconds(30), Duration.ofSeconds(60), Set.of()))).isEmpty();
        assertThat(cli.repository.find(owned.id())).contains(owned);

        hooks.get(0).run();
        assertThat(first.get(60, TimeUnit.SECONDS)).isZero();
        assertThat(cli.repository.workers()).extracting(WorkerRecord::id).containsExactly(secondId);
        hooks.get(1).run();
        assertThat(second.get(60, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void aWorkerIdThatCannotLabelAWorkerIsAUsageError() {
        assertThat(cli.run("serve", "--worker-id", "has space")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).isEqualTo("mcp-tasks: --worker-id must be 1 to 40 characters of A-Z a-z 0-9 . _ -,"
                + " was 'has space'\n");
        assertThat(cli.run("serve", "--worker-id", "x".repeat(41))).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err().lines()).hasSize(1);
    }

    /** A new task under a set-up claim (its lease outlives the test: the manual clock never reaches its expiry). */
    private Claim claimedTask() {
        cli.repository.create(new NewTask(TaskId.of("local-1"), "local", "tool", "{}", "mcp-tasks", null));
        return cli.repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("set-up"), 1,
                Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of())).get(0).claim();
    }

    /** Completes the set-up claim's create as {@code owner}'s process-local (stdio) task. */
    private TaskRecord processLocalTaskOf(Claim submit, WorkerId owner) {
        assertThat(cli.repository.applySubmitted(submit, new SubmitWrite("r1",
                new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null), null, "2025-11-25",
                owner, cli.clock.now(), null))).isTrue();
        return cli.repository.find(TaskId.of("local-1")).orElseThrow();
    }

    /** Serve registers its worker right after start-up; waits (bounded) until {@code count} are registered. */
    private List<WorkerRecord> awaitWorkers(int count) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            List<WorkerRecord> workers = cli.repository.workers();
            if (workers.size() >= count) {
                return workers;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("expected " + count + " workers, have " + cli.repository.workers() + "; " + cli.err());
    }
}
