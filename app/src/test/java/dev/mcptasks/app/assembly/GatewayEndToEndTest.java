package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.adapters.gateway.FrontDoor;
import dev.mcptasks.adapters.gateway.GatewaySettings;
import dev.mcptasks.adapters.gateway.HttpGateway;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production assembly of {@code mcp-tasks gateway --no-worker}: a front door that only stores and reads tasks, in
 * front of the reference server, and a separate worker on the same store that drives what it stored. A 2025-11-25
 * client creates a task as one principal, polls it to its result; another principal is told it does not exist.
 */
class GatewayEndToEndTest {
    private static final String ALICE = "alice-token-0123456789abcdef";
    private static final String BOB = "bob-token-0123456789abcdef00";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private ReferenceServer server;
    private Application gatewayApp;
    private HttpGateway gateway;
    private Application workerApp;
    private WorkerProcess worker;
    private int nextId = 1;

    @AfterEach
    void close() {
        try {
            if (worker != null) {
                worker.stop();
            }
            if (gateway != null) {
                gateway.close();
            }
        } finally {
            if (workerApp != null) {
                workerApp.close();
            }
            if (gatewayApp != null) {
                gatewayApp.close();
            }
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void aTaskStoredByTheGatewayIsDrivenByASeparateWorkerAndSeenOnlyByItsPrincipal() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(200));
        AppConfig config = config(server.startHttp(0));

        gatewayApp = AppRoot.production().openGateway(config, null);
        gateway = HttpGateway.start(gatewayApp.get(GatewaySettings.class).withBind("127.0.0.1", 0),
                gatewayApp.get(FrontDoor.class), gatewayApp.get(Clock.class));
        String alice = initialize(ALICE);
        String bob = initialize(BOB);

        JsonNode tools = call(ALICE, alice, "tools/list", "{}").path("result").path("tools");
        assertThat(tools.findValuesAsText("name")).contains("ref__work", "ref__echo");

        JsonNode created = call(ALICE, alice, "tools/call",
                "{\"name\":\"ref__work\",\"arguments\":{\"durationMs\":300,\"result\":\"via the gateway\"},"
                        + "\"task\":{\"ttl\":60000}}").path("result").path("task");
        String taskId = created.path("taskId").asText();
        TaskRecord stored = gatewayApp.get(TaskRepository.class).find(TaskId.of(taskId)).orElseThrow();
        assertThat(stored.definition().principal()).isEqualTo("alice");
        assertThat(stored.definition().toolName()).isEqualTo("work");

        // nothing in the gateway's process drives it: a worker of its own, on the same store, does
        workerApp = AppRoot.production().openWorker(config, WorkerId.of("separate"));
        worker = new WorkerProcess(workerApp);
        worker.start();

        JsonNode result = call(ALICE, alice, "tasks/result", "{\"taskId\":\"" + taskId + "\"}").path("result");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("via the gateway");
        assertThat(call(ALICE, alice, "tasks/get", "{\"taskId\":\"" + taskId + "\"}").path("result")
                .path("status").asText()).isEqualTo("completed");

        JsonNode foreign = call(BOB, bob, "tasks/get", "{\"taskId\":\"" + taskId + "\"}");
        assertThat(foreign.path("error").path("message").asText()).containsIgnoringCase("not found");
        assertThat(call(BOB, bob, "tasks/list", "{}").path("result").path("tasks")).isEmpty();
    }

    /**
     * A 2026-07-28 client follows its task with {@code subscriptions/listen}: the gateway (no worker of its own) hears
     * of the separate worker's commits through the store, and streams the acknowledgement, the task's changes up to
     * its result, and the end of the subscription.
     */
    @Test
    void a2026ClientListeningIsToldOfTheSeparateWorkersChangesUntilTheResult() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(200));
        AppConfig config = config(server.startHttp(0));
        gatewayApp = AppRoot.production().openGateway(config, null);
        gateway = HttpGateway.start(gatewayApp.get(GatewaySettings.class).withBind("127.0.0.1", 0),
                gatewayApp.get(FrontDoor.class), gatewayApp.get(Clock.class));
        JsonNode created = lastMessage(v2026(ALICE, "tools/call", "{\"name\":\"ref__work\",\"arguments\":"
                + "{\"durationMs\":1500,\"result\":\"told by the stream\"}}", "ref__work").body());
        assertThat(created.path("result").path("resultType").asText()).isEqualTo("task");
        String taskId = created.path("result").path("taskId").asText();

        HttpResponse<java.util.stream.Stream<String>> stream = http.send(v2026Request(ALICE, "subscriptions/listen",
                "{\"notifications\":{\"taskIds\":[\"" + taskId + "\"]}}", null, "listen-1"),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.headers().firstValue("Content-Type")).contains("text/event-stream");
        java.util.List<JsonNode> messages = new java.util.ArrayList<>();
        java.util.concurrent.CompletableFuture<Void> reading = java.util.concurrent.CompletableFuture.runAsync(() ->
                stream.body().filter(line -> line.startsWith("data:")).forEach(line -> {
                    try {
                        synchronized (messages) {
                            messages.add(JSON.readTree(line.substring(5).trim()));
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }));
        // the acknowledgement and the task as it is, before any worker runs
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (size(messages) < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        workerApp = AppRoot.production().openWorker(config, WorkerId.of("separate"));
        worker = new WorkerProcess(workerApp);
        worker.start();
        reading.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);

        assertThat(messages.get(0).path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(messages.get(0).path("params").path("notifications").path("taskIds").get(0).asText())
                .isEqualTo(taskId);
        java.util.List<JsonNode> tasks = messages.subList(1, messages.size() - 1);
        assertThat(tasks).allSatisfy(message -> {
            assertThat(message.path("method").asText()).isEqualTo("notifications/tasks");
            assertThat(message.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asText())
                    .isEqualTo("listen-1");
        });
        assertThat(tasks.get(0).path("params").path("status").asText()).isEqualTo("working");
        JsonNode last = tasks.get(tasks.size() - 1).path("params");
        assertThat(last.path("status").asText()).isEqualTo("completed");
        assertThat(last.path("result").path("content").get(0).path("text").asText()).isEqualTo("told by the stream");
        JsonNode end = messages.get(messages.size() - 1);
        assertThat(end.path("id").asText()).isEqualTo("listen-1");
        assertThat(end.path("result").path("_meta").path("io.modelcontextprotocol/subscriptionId").asText())
                .isEqualTo("listen-1");
    }

    /** The body's JSON-RPC message: the body itself, or the last data line of an SSE answer. */
    private static JsonNode lastMessage(String body) throws Exception {
        String json = body;
        for (String line : body.split("\r?\n")) {
            if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                json = line.substring(5).trim();
            }
        }
        return JSON.readTree(json);
    }

    private static int size(java.util.List<JsonNode> messages) {
        synchronized (messages) {
            return messages.size();
        }
    }

    private HttpResponse<String> v2026(String token, String method, String params, String name) throws Exception {
        return http.send(v2026Request(token, method, params, name, "m-" + nextId++),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A 2026-07-28 request with the tasks extension declared and its SEP-2243 headers. */
    private HttpRequest v2026Request(String token, String method, String params, String name, String id) {
        ObjectNode body = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        try {
            ObjectNode parsed = (ObjectNode) JSON.readTree(params);
            ObjectNode meta = parsed.putObject("_meta");
            meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
            meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("extensions")
                    .putObject("io.modelcontextprotocol/tasks");
            body.set("params", parsed);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.endpoint()).timeout(WAIT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method).POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (name != null) {
            request.header("Mcp-Name", name);
        }
        return request.build();
    }

    private AppConfig config(URI endpoint) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("pollIntervalSeconds", 1).put("tickMillis", 100).put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString());
        ObjectNode principals = root.putObject("gateway").putObject("principals");
        principals.put("alice", "${env:ALICE}").put("bob", "${env:BOB}");
        return new ConfigLoader(Map.of("ALICE", ALICE, "BOB", BOB)::get, dir)
                .parse("gateway.json", JSON.writeValueAsString(root));
    }

    /** Opens a 2025-11-25 session; answers its id. */
    private String initialize(String token) throws Exception {
        HttpResponse<String> response = post(token, null, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private JsonNode call(String token, String session, String method, String params) throws Exception {
        HttpResponse<String> response = post(token, session, method, params);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> post(String token, String session, String method, String params) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"" + method + "\",\"params\":"
                + params + "}";
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.endpoint()).timeout(WAIT)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("Authorization", "Bearer " + token).header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
