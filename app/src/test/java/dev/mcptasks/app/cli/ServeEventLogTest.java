package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.ContextInitializer;
import dev.mcptasks.adapters.sqlite.SqliteSettings;
import dev.mcptasks.adapters.sqlite.SqliteTaskRepositories;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code serve} with the logging configuration we ship ({@code src/main/resources/logback.xml}) prints one line on
 * stderr per state change: a task created remotely, its status changes, a cancellation sent, a takeover of an
 * expired claim; and the log sink's notification of each attention event.
 */
class ServeEventLogTest {
    private static final Path SHIPPED_CONFIG = Path.of("src/main/resources/logback.xml");

    @TempDir
    Path dir;

    private final AtomicReference<Runnable> shutdown = new AtomicReference<>();
    private final CountDownLatch hookRegistered = new CountDownLatch(1);
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private StringWriter out;
    private StringWriter err;

    @BeforeEach
    void shippedLoggingOnCapturedStderr() throws Exception {
        originalErr = System.err;
        // the shipped console appender writes to whatever System.err is at the time of each event
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(SHIPPED_CONFIG.toFile());
    }

    @AfterEach
    void testLogging() throws Exception {
        System.setErr(originalErr);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        new ContextInitializer(context).autoConfig();
    }

    @Test
    void serveLogsOneLinePerStateChange() throws Exception {
        Path database = dir.resolve("tasks.db");
        ServeTestConfig.write(dir, database);
        seedAnExpiredClaimOfAStoppedWorker(database);

        CompletableFuture<Integer> serving = CompletableFuture.supplyAsync(() -> run("serve", "--worker-id", "ops"));
        assertThat(hookRegistered.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(run("submit", "ref", "work", "--args", "{\"durationMs\": 200, \"result\": \"done\"}")).isZero();
        String quick = out.toString().strip();
        assertThat(run("submit", "ref", "work", "--args", "{\"durationMs\": 600000}")).isZero();
        String slow = out.toString().strip();
        assertThat(run("result", quick, "--wait", "60")).as(err.toString()).isZero();
        assertThat(run("result", "seeded", "--wait", "60")).as(err.toString()).isZero();
        awaitShown(slow, "\"status\":\"working\"");
        assertThat(run("cancel", slow)).isZero();
        assertThat(run("result", slow, "--wait", "60")).isEqualTo(ExitCodes.FAILED);
        awaitShown(quick, "\"status\":\"delivered\"");
        shutdown.get().run();
        assertThat(serving.get(60, TimeUnit.SECONDS)).isZero();

        // every line is logged before serve returns: no wait needed beyond the shutdown
        List<String> lines = stderr.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).filteredOn(line -> line.contains("task seeded: taken over by worker ops"))
                .singleElement().asString().contains(" INFO ", "previous submit claim expired");
        assertThat(lines).as("a takeover is logged once, as the event line")
                .noneMatch(line -> line.contains("taking over"));
        assertThat(lines).filteredOn(line -> line.contains("task " + quick + ": created remotely as "))
                .singleElement().asString().contains(" INFO ", "pending -> working");
        assertThat(lines).filteredOn(line -> line.contains("task " + quick + ": working -> completed"))
                .singleElement().asString().contains(" INFO ");
        assertThat(lines).filteredOn(line -> line.contains("task " + slow + ": sending the cancel request to ref"))
                .singleElement().asString().contains(" INFO ");
        assertThat(lines).filteredOn(line -> line.contains("task " + slow + ": working -> cancelled"))
                .singleElement().asString().contains(" INFO ");
        assertThat(lines).as("the log sink's notification of the terminal event")
                .anySatisfy(line -> assertThat(line).contains(" INFO ", "mcp-task:" + quick + ":"));
    }

    /** A row claimed for submission by a worker that died an hour ago: its lease has long expired. */
    private static void seedAnExpiredClaimOfAStoppedWorker(Path database) {
        ManualClock anHourAgo = new ManualClock(Instant.now().minus(Duration.ofHours(1)));
        try (CloseableTaskRepository store = SqliteTaskRepositories.open(SqliteSettings.forFile(database), anHourAgo,
                new SequentialIdGenerator(), FencedWriteHook.NONE)) {
            store.create(new NewTask(TaskId.of("seeded"), "ref", "work",
                    "{\"durationMs\": 100, \"result\": \"seeded\"}", "mcp-tasks", null));
            assertThat(store.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("gone"), 1,
                    Duration.ofSeconds(10), Duration.ofSeconds(10), Set.of()))).hasSize(1);
        }
    }

    /** Polls {@code show} as an operator would, until the task's JSON contains {@code fragment} (at most 60 s). */
    private void awaitShown(String id, String fragment) throws Exception {
        for (int i = 0; i < 600; i++) {
            assertThat(run("show", id, "--json")).isZero();
            if (out.toString().contains(fragment)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("task " + id + " never showed " + fragment + ": " + out);
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CliContext context = new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ConfigLoader(Map.<String, String>of()::get, dir), AppRoot.production(), Sleeper.REAL, hook -> {
                    shutdown.set(hook);
                    hookRegistered.countDown();
                });
        return Cli.run(context, args);
    }
}
