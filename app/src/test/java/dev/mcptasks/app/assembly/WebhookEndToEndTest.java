package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production assembly with {@code notifications.webhook}: a task run by a real worker (SQLite, the reference
 * server over Streamable HTTP) to completion reaches a local receiver as a POST of its event, signed the Standard
 * Webhooks way with the configured secret (checked here with an HMAC computed independently of the sink), with a
 * configured header whose value came from the environment.
 */
class WebhookEndToEndTest {
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One POST the receiver got. */
    private record Received(String id, String timestamp, String signature, String team, byte[] body) {}

    @TempDir
    Path dir;

    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private HttpServer receiver;
    private ExecutorService receiving;
    private ReferenceServer server;
    private Application app;
    private WorkerProcess worker;

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
    void aFinishedTasksEventReachesTheWebhookSigned() throws Exception {
        URI hook = startReceiver();
        server = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(200));
        URI endpoint = server.startHttp(0);
        AppConfig config = config(hook, endpoint);

        app = AppRoot.production().openWorker(config, WorkerId.of("hooked"));
        worker = new WorkerProcess(app);
        worker.start();
        String id = app.get(TaskService.class).submit("ref", "work", "{\"durationMs\": 100, \"result\": \"done\"}")
                .id().value();

        Received completed = awaitEvent(id, "completed");
        assertThat(completed.id()).startsWith("mcp-task:" + id + ":");
        assertThat(completed.team()).isEqualTo("ops-from-env");
        long sent = Long.parseLong(completed.timestamp());
        assertThat(Math.abs(Instant.now().getEpochSecond() - sent)).isLessThan(300);
        assertThat(completed.signature().split(" "))
                .contains("v1," + expectedSignature(completed.id(), completed.timestamp(), completed.body()));
    }

    /** A receiver on loopback that records each POST and answers 204. */
    private URI startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hook", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                var headers = exchange.getRequestHeaders();
                received.add(new Received(headers.getFirst("webhook-id"), headers.getFirst("webhook-timestamp"),
                        headers.getFirst("webhook-signature"), headers.getFirst("X-Team"), body));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        receiving = Executors.newSingleThreadExecutor();
        receiver.setExecutor(receiving);
        receiver.start();
        return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
    }

    private AppConfig config(URI hook, URI endpoint) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("pollIntervalSeconds", 1).put("tickMillis", 100).put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString());
        ObjectNode webhook = root.putObject("notifications").putObject("webhook");
        webhook.put("url", hook.toString()).put("secret", "${env:HOOK_SECRET}").put("timeoutSeconds", 5);
        webhook.putObject("headers").put("X-Team", "${env:TEAM}");
        return new ConfigLoader(Map.of("HOOK_SECRET", SECRET, "TEAM", "ops-from-env")::get, dir)
                .parse("e2e.json", JSON.writeValueAsString(root));
    }

    /** The first POST whose event is {@code id} in {@code status}; earlier events of the task are passed over. */
    private Received awaitEvent(String id, String status) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        StringBuilder seen = new StringBuilder();
        while (true) {
            long left = deadline - System.nanoTime();
            Received next = left <= 0 ? null : received.poll(left, TimeUnit.NANOSECONDS);
            assertThat(next).as("an event of task %s in status %s; received: %s", id, status, seen).isNotNull();
            String body = new String(next.body(), StandardCharsets.UTF_8);
            seen.append(body).append('\n');
            JsonNode event = JSON.readTree(body);
            if (body.contains(id) && status.equals(statusOf(event))) {
                return next;
            }
        }
    }

    /** The task status an event carries, wherever the event puts it. */
    private static String statusOf(JsonNode event) {
        JsonNode status = event.findValue("status");
        return status == null ? null : status.asText();
    }

    /** Standard Webhooks: base64 of HMAC-SHA256 over {@code id.timestamp.body} with the decoded whsec_ key. */
    private static String expectedSignature(String id, String timestamp, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(mac.doFinal(body));
    }
}
