package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22 on the production wiring: a server whose 401 names resource metadata that streams without end fails its
 * task {@code auth_required} naming the size cap, having been read no further than about the cap; the worker stays
 * up, another OAuth server's task completes, and no thread died on the way.
 */
class HostileUpstreamEndToEndTest {
    /** Far more than the cap; it ends, so that code without the cap fails this test instead of the JVM. */
    private static final long ENDLESS = 64L * 1024 * 1024;

    @TempDir
    Path dir;

    private final AtomicReference<Runnable> shutdown = new AtomicReference<>();
    private final CountDownLatch hookRegistered = new CountDownLatch(1);
    private final Map<String, String> environment = Map.of("ROBOT_SECRET", FakeOAuthServer.CLIENT_SECRET,
            "MCP_TASKS_SECRET_KEY", Base64.getEncoder().encodeToString(new byte[32]));
    private final AtomicLong streamed = new AtomicLong();
    private final CountDownLatch streamEnded = new CountDownLatch(1);
    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Thread.UncaughtExceptionHandler previous;
    private FakeOAuthServer good;
    private HttpServer hostile;
    private StringWriter out;
    private StringWriter err;

    @BeforeEach
    void setUp() throws IOException {
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> uncaught.add(error));
        good = new FakeOAuthServer();
        hostile = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        hostile.createContext("/mcp", this::challenge);
        hostile.createContext("/endless", this::endless);
        hostile.start();
        Files.writeString(dir.resolve("mcp-tasks.json"), """
                { "database": { "url": "jdbc:sqlite:%s" },
                  "runtime": { "leaseSeconds": 10, "pollIntervalSeconds": 1, "drainSeconds": 2 },
                  "mcpServers": {
                    "remote": { "url": "%s", "transport": "http",
                      "auth": { "grant": "client_credentials", "clientId": "robot",
                                "clientSecret": "${env:ROBOT_SECRET}" } },
                    "hostile": { "url": "%s", "transport": "http",
                      "auth": { "grant": "client_credentials", "clientId": "robot",
                                "clientSecret": "${env:ROBOT_SECRET}" } } } }
                """.formatted(dir.resolve("tasks.db"), good.mcpUrl(), hostileUrl("/mcp")));
    }

    @AfterEach
    void tearDown() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
        hostile.stop(0);
        good.close();
    }

    private String hostileUrl(String path) {
        return "http://127.0.0.1:" + hostile.getAddress().getPort() + path;
    }

    private void challenge(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("WWW-Authenticate",
                    "Bearer resource_metadata=\"" + hostileUrl("/endless") + "\"");
            exchange.sendResponseHeaders(401, -1);
        }
    }

    private void endless(HttpExchange exchange) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) ' ');
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write('{');
            while (streamed.get() < ENDLESS) {
                body.write(chunk);
                streamed.addAndGet(chunk.length);
            }
        } catch (IOException e) {
            // the client cut the exchange
        } finally {
            streamEnded.countDown();
        }
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
    void anEndlessResourceMetadataFailsItsServersTaskAndTheWorkerServesTheNext() throws Exception {
        CompletableFuture<Integer> serving = CompletableFuture.supplyAsync(() -> run("serve", "--worker-id", "e2e"));
        assertThat(hookRegistered.await(60, TimeUnit.SECONDS)).isTrue();

        assertThat(run("submit", "hostile", "echo", "--args", "{}")).as(err.toString()).isZero();
        String refused = out.toString().strip();
        assertThat(run("result", refused, "--wait", "60")).isEqualTo(ExitCodes.FAILED);
        assertThat(run("show", refused, "--json")).isZero();
        assertThat(out.toString()).contains("\"status\":\"failed\"", "\"errorCode\":\"auth_required\"",
                "answered more than 1048576 bytes");
        assertThat(streamEnded.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(streamed.get()).as("bytes the worker took of the endless body").isLessThan(16L * 1024 * 1024);

        assertThat(run("submit", "remote", "echo", "--args", "{\"text\": \"still here\"}")).isZero();
        String next = out.toString().strip();
        assertThat(run("result", next, "--wait", "60")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("still here");

        shutdown.get().run();
        assertThat(serving.get(60, TimeUnit.SECONDS)).isZero();
        assertThat(uncaught).isEmpty();
    }
}
