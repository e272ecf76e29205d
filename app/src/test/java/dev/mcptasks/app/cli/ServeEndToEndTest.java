package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production wiring end to end: a SQLite file, the reference server over stdio (a child JVM on this test's
 * class path), {@code serve} in a thread, and
 * {@code submit}, {@code result --wait} and {@code cancel} as a user runs them; then a shutdown request drains the
 * worker, which deregisters and exits 0.
 */
class ServeEndToEndTest {
    @TempDir
    Path dir;

    private final AtomicReference<Runnable> shutdown = new AtomicReference<>();
    private final CountDownLatch hookRegistered = new CountDownLatch(1);
    private StringWriter out;
    private StringWriter err;

    @BeforeEach
    void writeConfig() throws IOException {
        ServeTestConfig.write(dir, dir.resolve("tasks.db"));
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

    @Test
    void serveRunsSubmittedTasksCancelsOnRequestAndDrainsOnShutdown() throws Exception {
        CompletableFuture<Integer> serving = CompletableFuture.supplyAsync(() -> run("serve", "--worker-id", "e2e"));
        assertThat(hookRegistered.await(60, TimeUnit.SECONDS)).isTrue();

        assertThat(run("submit", "ref", "work", "--args", "{\"durationMs\": 300, \"result\": \"the report\"}"))
                .isZero();
        String quick = out.toString().strip();
        assertThat(run("submit", "ref", "work", "--args", "{\"durationMs\": 600000}")).isZero();
        String slow = out.toString().strip();

        assertThat(run("result", quick, "--wait", "60")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("the report");

        assertThat(run("cancel", slow)).isZero();
        assertThat(run("result", slow, "--wait", "60")).isEqualTo(1);
        assertThat(err.toString()).contains("task " + slow + " was cancelled");

        assertThat(run("workers", "--json")).isZero();
        assertThat(out.toString()).contains("\"id\":\"e2e:", "\"state\":\"live\"");

        shutdown.get().run();
        assertThat(serving.get(60, TimeUnit.SECONDS)).isZero();
        assertThat(run("workers", "--json")).isZero();
        assertThat(out.toString().strip()).isEqualTo("[]");
    }
}
