package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OAuth end to end on the production wiring (SQLite store holding the sealed token, Streamable HTTP transport asking
 * the OAuth adapter for its header): a worker calls the plain tool of a protected server with a client-credentials
 * token it fetched on the first 401; once the client is disabled and its tokens revoked, the next task ends failed
 * with {@code auth_required} instead of being retried, and the server sees no call of it.
 */
class AuthEndToEndTest {
    @TempDir
    Path dir;

    private final AtomicReference<Runnable> shutdown = new AtomicReference<>();
    private final CountDownLatch hookRegistered = new CountDownLatch(1);
    private final Map<String, String> environment = Map.of("ROBOT_SECRET", FakeOAuthServer.CLIENT_SECRET,
            "MCP_TASKS_SECRET_KEY", Base64.getEncoder().encodeToString(new byte[32]));
    private FakeOAuthServer server;
    private StringWriter out;
    private StringWriter err;

    @BeforeEach
    void setUp() throws IOException {
        server = new FakeOAuthServer();
        Files.writeString(dir.resolve("mcp-tasks.json"), """
                { "database": { "url": "jdbc:sqlite:%s" },
                  "runtime": { "leaseSeconds": 10, "pollIntervalSeconds": 1, "drainSeconds": 2 },
                  "mcpServers": { "remote": { "url": "%s", "transport": "http",
                      "auth": { "grant": "client_credentials", "clientId": "robot",
                                "clientSecret": "${env:ROBOT_SECRET}" } } } }
                """.formatted(dir.resolve("tasks.db"), server.mcpUrl()));
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CliContext context = new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ConfigLoader(environment::get, dir), AppRoot.production(environment::get), Sleeper.REAL,
                hook -> {
                    shutdown.set(hook);
                    hookRegistered.countDown();
                });
        return Cli.run(context, args);
    }

    @Test
    void aWorkerCallsAProtectedServerWithAFetchedTokenAndARevokedOneEndsTheTaskAuthRequired() throws Exception {
        CompletableFuture<Integer> serving = CompletableFuture.supplyAsync(() -> run("serve", "--worker-id", "e2e"));
        assertThat(hookRegistered.await(60, TimeUnit.SECONDS)).isTrue();

        assertThat(run("submit", "remote", "echo", "--args", "{\"text\": \"hello\"}")).as(err.toString()).isZero();
        String first = out.toString().strip();
        assertThat(run("result", first, "--wait", "60")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("echo").contains("hello");
        assertThat(server.toolCalls()).isEqualTo(1);
        assertThat(server.tokensIssued()).isEqualTo(1);
        assertThat(run("auth", "status")).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("remote +yes").doesNotContain("token-1");

        server.revoke();
        assertThat(run("submit", "remote", "echo", "--args", "{\"text\": \"again\"}")).isZero();
        String second = out.toString().strip();
        assertThat(run("result", second, "--wait", "60")).isEqualTo(ExitCodes.FAILED);
        assertThat(run("show", second, "--json")).isZero();
        assertThat(out.toString()).contains("\"status\":\"failed\"", "\"errorCode\":\"auth_required\"")
                .doesNotContain("token-1").doesNotContain(FakeOAuthServer.CLIENT_SECRET);
        assertThat(server.toolCalls()).isEqualTo(1);

        shutdown.get().run();
        assertThat(serving.get(60, TimeUnit.SECONDS)).isZero();
    }
}
