package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.adapters.gateway.FrontDoor;
import dev.mcptasks.adapters.gateway.GatewaySettings;
import dev.mcptasks.adapters.gateway.HttpGateway;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's own metrics on its admin listener: the production assembly of {@code gateway} (a worker beside it) on
 * a SQLite file in front of the reference server. Scraped before and after a client's requests, the request latency
 * by method and principal, the sessions open and the SSE streams open move by exactly what the client did.
 */
class GatewayMetricsEndToEndTest {
    private static final String ALICE = "alice-token-0123456789abcdef";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SESSIONS = "mcp_tasks_gateway_sessions_open";
    private static final String STREAMS = "mcp_tasks_gateway_streams_open";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final OpenedResources opened = new OpenedResources();
    private ReferenceServer server;
    private HttpGateway gateway;
    private int nextId = 1;

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    private static String requests(String method) {
        return "mcp_tasks_gateway_request_seconds_count{method=\"" + method + "\",principal=\"alice\"}";
    }

    private static double value(String body, String series) {
        return MetricsScrape.value(body, series);
    }

    @Test
    void requestLatencySessionsAndStreamsMoveWithAClientsRequests() throws Exception {
        server = opened.add(new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(200)));
        Application app = opened.add(AppRoot.production().openGateway(config(), WorkerId.of("gateway-metrics")));
        AdminListener admin = opened.add(AdminModules.start(app).orElseThrow());
        WorkerProcess worker = new WorkerProcess(app);
        opened.add(worker::stop);
        worker.start();
        // answers that are not there at once stream at once, so the test knows when a stream opens
        GatewaySettings settings = app.get(GatewaySettings.class).withBind("127.0.0.1", 0).withStreaming(
                new GatewaySettings.Streaming(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO));
        gateway = opened.add(HttpGateway.start(settings, app.get(FrontDoor.class), app.get(Clock.class),
                app.get(FrontSessionStore.class)));
        MetricsScrape metrics = new MetricsScrape(admin.address().getPort());

        String before = metrics.scrape();
        assertThat(value(before, SESSIONS)).isZero();
        assertThat(value(before, STREAMS)).isZero();
        assertThat(value(before, requests("tools/call"))).isZero();

        String session = initialize();
        String initialized = metrics.until(requests("initialize"), 1);
        assertThat(value(initialized, SESSIONS)).isEqualTo(1);
        assertThat(value(initialized, requests("initialize"))).isEqualTo(1);
        assertThat(value(initialized, STREAMS)).as("initialize is answered as JSON").isZero();

        try (InputStream listening = open(session, HttpRequest.newBuilder(gateway.endpoint()).GET())) {
            BufferedReader listened = reader(listening);
            readEvent(listened);
            assertThat(value(metrics.scrape(), STREAMS)).as("the GET stream").isEqualTo(1);

            JsonNode created = JSON.readTree(post(session, "tools/call", "{\"name\":\"ref__work\",\"arguments\":"
                    + "{\"durationMs\":1500,\"result\":\"metered\"},\"task\":{\"ttl\":60000}}", "application/json")
                    .body());
            String taskId = created.path("result").path("task").path("taskId").asText();
            assertThat(taskId).as(created.toString()).isNotEmpty();

            // the result is not there yet: the answer streams, on a stream of its own, until it is
            try (InputStream answering = open(session, HttpRequest.newBuilder(gateway.endpoint())
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            request("tasks/result", "{\"taskId\":\"" + taskId + "\"}"))))) {
                BufferedReader answer = reader(answering);
                readEvent(answer);
                assertThat(value(metrics.scrape(), STREAMS)).as("the GET stream and the answer's").isEqualTo(2);
                assertThat(readEventContaining(answer, "\"result\"")).contains("metered");
                metrics.until(STREAMS, 1);
            }
        }
        metrics.until(STREAMS, 0);

        assertThat(post(session, "tools/list", "{}", "application/json").statusCode()).isEqualTo(200);
        HttpResponse<String> deleted = http.send(authorized(session, HttpRequest.newBuilder(gateway.endpoint())
                .DELETE()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).isEqualTo(200);

        String after = metrics.until(requests("tools/list"), 1);
        assertThat(value(after, SESSIONS)).isZero();
        assertThat(value(after, STREAMS)).isZero();
        assertThat(value(after, requests("tools/call"))).isEqualTo(1);
        assertThat(value(after, requests("tasks/result"))).isEqualTo(1);
        assertThat(value(after, "mcp_tasks_gateway_request_seconds_sum{method=\"tasks/result\",principal=\"alice\"}"))
                .as("the held answer took the task's time").isGreaterThan(0.5);
        assertThat(value(after, "mcp_tasks_gateway_request_seconds_bucket{method=\"tools/list\","
                + "principal=\"alice\",le=\"30.0\"}")).isEqualTo(1);
    }

    private AppConfig config() throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("pollIntervalSeconds", 1).put("tickMillis", 100).put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", server.startHttp(0).toString());
        root.putObject("gateway").putObject("principals").put("alice", "${env:ALICE}");
        root.putObject("admin").put("port", 0);
        return new ConfigLoader(Map.of("ALICE", ALICE)::get, dir).parse("gateway.json", JSON.writeValueAsString(root));
    }

    private String initialize() throws Exception {
        HttpResponse<String> response = post(null, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}", "application/json");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private String request(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private HttpResponse<String> post(String session, String method, String params, String accept) throws Exception {
        return http.send(authorized(session, HttpRequest.newBuilder(gateway.endpoint())
                .header("Content-Type", "application/json").header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(request(method, params)))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A request whose answer is an SSE stream, read as it comes; closing it closes the connection. */
    private InputStream open(String session, HttpRequest.Builder request) throws Exception {
        HttpResponse<InputStream> response = http.send(authorized(session, request)
                .header("Accept", "application/json, text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("text/event-stream");
        return response.body();
    }

    private HttpRequest.Builder authorized(String session, HttpRequest.Builder request) {
        request.timeout(WAIT).header("Authorization", "Bearer " + ALICE).header("MCP-Protocol-Version", "2025-11-25");
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return request;
    }

    private static BufferedReader reader(InputStream stream) {
        return new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    }

    /** The data of the next event whose data contains {@code text} (a related notification may come first). */
    private static String readEventContaining(BufferedReader stream, String text) throws Exception {
        String data = readEvent(stream);
        while (data != null && !data.contains(text)) {
            data = readEvent(stream);
        }
        assertThat(data).as("an event with " + text + " before the stream ended").isNotNull();
        return data;
    }

    /** The next event's data (the priming event's is empty), null at the end of the stream. */
    private static String readEvent(BufferedReader stream) throws Exception {
        StringBuilder data = new StringBuilder();
        String line = stream.readLine();
        if (line == null) {
            return null;
        }
        for (; line != null && !line.isEmpty(); line = stream.readLine()) {
            if (line.startsWith("data:")) {
                data.append(line.substring(5).trim());
            }
        }
        return data.toString();
    }
}
