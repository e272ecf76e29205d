package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.cli.Cli;
import dev.mcptasks.app.cli.CliContext;
import dev.mcptasks.app.cli.Sleeper;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dead letters end to end with the production wiring: a worker (SQLite, the reference server over Streamable HTTP)
 * finishes a task whose event a local webhook receiver refuses with HTTP 500 until the outbox gives that version up;
 * {@code notifications list} shows the dead letter, {@code notifications replay} takes it back, the receiver, now
 * answering 200, gets the same event version signed with the configured secret under a new idempotency key, and the
 * list is empty again. The runtime retries after one second (poll interval and backoff cap), so it takes seconds.
 */
class DeadLetterReplayEndToEndTest {
    private static final String SECRET = "whsec_c2FtcGxlLXNlY3JldC1mb3ItcmVwbGF5cy0xMjM0NSE=";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> ENVIRONMENT = Map.of("HOOK_SECRET", SECRET);

    /** One POST and the status the receiver answered it with. */
    private record Post(String webhookId, String timestamp, String signature, byte[] body, int answered) {}

    @TempDir
    Path dir;

    private final BlockingQueue<Post> posts = new LinkedBlockingQueue<>();
    private final AtomicInteger answer = new AtomicInteger(500);
    private HttpServer receiver;
    private ExecutorService receiving;
    private ReferenceServer server;
    private Application app;
    private WorkerProcess worker;
    private StringWriter out;
    private StringWriter err;

    @AfterEach
    void close() {
        try {
            if (worker != null) {
                worker.stop();
            }
        } finally {
            if (app != null) {
                app.close();
            }
            if (server != null) {
                server.close();
            }
            if (receiver != null) {
                receiver.stop(0);
                receiving.shutdownNow();
            }
        }
    }

    @Test
    void aDeadLetterIsListedReplayedAndDeliveredSignedOnceTheReceiverRecovers() throws Exception {
        URI hook = startReceiver();
        server = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(200));
        writeConfig(hook, server.startHttp(0));
        app = AppRoot.production().openWorker(new ConfigLoader(ENVIRONMENT::get, dir).load(null),
                WorkerId.of("replays"));
        worker = new WorkerProcess(app);
        worker.start();
        TaskRepository store = app.get(TaskRepository.class);

        assertThat(cli("submit", "ref", "work", "--args", "{\"durationMs\": 100, \"result\": \"done\"}"))
                .as(err.toString()).isZero();
        TaskId id = TaskId.of(out.toString().strip());
        for (int attempt = 1; attempt <= NotificationRules.MAX_ATTEMPTS; attempt++) {
            Post refused = nextPost();
            assertThat(refused.webhookId()).isEqualTo(NotificationRules.idempotencyKey(id, 1, attempt));
            assertThat(refused.answered()).isEqualTo(500);
        }
        AwaitRow.until(store, id, WAIT, row -> row.outbox().status() == NotificationStatus.DEAD_LETTER,
                row -> row.outbox());

        assertThat(cli("notifications", "list", "--json")).as(err.toString()).isZero();
        JsonNode dead = JSON.readTree(out.toString());
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).get("id").asText()).isEqualTo(id.value());
        assertThat(dead.get(0).get("eventVersion").asLong()).isEqualTo(1);
        assertThat(dead.get(0).get("attempts").asInt()).isEqualTo(NotificationRules.MAX_ATTEMPTS);
        assertThat(dead.get(0).get("error").asText()).contains("500");

        answer.set(200);
        assertThat(cli("notifications", "replay", id.value())).as(err.toString()).isZero();
        assertThat(out.toString()).isEqualTo("replayed " + id.value() + " (ref/work, event version 1)\n");
        Post delivered = nextPost();
        assertThat(delivered.webhookId())
                .isEqualTo(NotificationRules.idempotencyKey(id, 1, NotificationRules.MAX_ATTEMPTS + 1));
        assertThat(delivered.answered()).isEqualTo(200);
        assertThat(delivered.signature().split(" ")).contains("v1," + sign(delivered));
        JsonNode event = JSON.readTree(delivered.body());
        assertThat(event.toString()).contains(id.value());
        assertThat(event.findValue("status").asText()).isEqualTo("completed");

        AwaitRow.until(store, id, WAIT, row -> row.outbox().status() == NotificationStatus.DELIVERED,
                row -> row.outbox());
        assertThat(cli("notifications", "list", "--json")).as(err.toString()).isZero();
        assertThat(JSON.readTree(out.toString())).isEmpty();
        assertThat(posts).as("nothing sent after the delivery").isEmpty();
    }

    /** A receiver on loopback that records each POST and answers with the current {@link #answer}. */
    private URI startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/events", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                int status = answer.get();
                var headers = exchange.getRequestHeaders();
                exchange.sendResponseHeaders(status, -1);
                posts.add(new Post(headers.getFirst("webhook-id"), headers.getFirst("webhook-timestamp"),
                        headers.getFirst("webhook-signature"), body, status));
            }
        });
        receiving = Executors.newSingleThreadExecutor();
        receiver.setExecutor(receiving);
        receiver.start();
        return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/events");
    }

    /** The worker's and the command line's configuration, one file; no breaker opens within the test's sends. */
    private void writeConfig(URI hook, URI endpoint) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("pollIntervalSeconds", 1).put("maxBackoffSeconds", 1).put("tickMillis", 100)
                .put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString());
        ObjectNode webhook = root.putObject("notifications").putObject("webhook");
        webhook.put("url", hook.toString()).put("secret", "${env:HOOK_SECRET}").put("timeoutSeconds", 5);
        webhook.putObject("breaker").put("minimumCalls", 1000);
        Files.writeString(dir.resolve("mcp-tasks.json"), JSON.writeValueAsString(root));
    }

    private int cli(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        return Cli.run(new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ConfigLoader(ENVIRONMENT::get, dir), AppRoot.production(), Sleeper.REAL, hook -> {}), args);
    }

    private Post nextPost() throws InterruptedException {
        Post post = posts.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(post).as("a POST within %s", WAIT).isNotNull();
        return post;
    }

    /** The Standard Webhooks signature the receiver expects: HMAC-SHA256 of "id.timestamp.body", base64. */
    private static String sign(Post post) throws Exception {
        byte[] key = Base64.getDecoder().decode(SECRET.substring(SECRET.indexOf('_') + 1));
        Mac hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(key, hmac.getAlgorithm()));
        byte[] signed = (post.webhookId() + "." + post.timestamp() + ".").getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[signed.length + post.body().length];
        System.arraycopy(signed, 0, message, 0, signed.length);
        System.arraycopy(post.body(), 0, message, signed.length, post.body().length);
        return Base64.getEncoder().encodeToString(hmac.doFinal(message));
    }
}
