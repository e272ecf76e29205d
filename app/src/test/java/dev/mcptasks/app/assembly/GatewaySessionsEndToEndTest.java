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
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two gateway processes' assemblies ({@code gateway --no-worker}) on one SQLite file, and a worker on it: a 2025-11-25
 * client initializes on one, and its one session serves it on either, alternately, and on a third gateway started
 * after the first one stopped (a restart), until its task's result; another principal presenting the id gets 404.
 */
class GatewaySessionsEndToEndTest {
    private static final String ALICE = "alice-token-0123456789abcdef";
    private static final String BOB = "bob-token-0123456789abcdef00";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> open = new ArrayList<>();
    private ReferenceServer server;
    private int nextId = 1;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** One gateway process's assembly and listener on the shared store. */
    private HttpGateway gateway(AppConfig config) {
        Application app = AppRoot.production().openGateway(config, null);
        open.add(app);
        HttpGateway gateway = HttpGateway.start(app.get(GatewaySettings.class).withBind("127.0.0.1", 0),
                app.get(FrontDoor.class), app.get(Clock.class), app.get(FrontSessionStore.class));
        open.add(gateway);
        return gateway;
    }

    @Test
    void oneSessionIsServedByEitherGatewayAndAfterARestart() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(200));
        AppConfig config = config(server.startHttp(0));
        HttpGateway first = gateway(config);
        HttpGateway second = gateway(config);

        String session = initialize(first, ALICE);
        JsonNode created = call(second, ALICE, session, "tools/call",
                "{\"name\":\"ref__work\",\"arguments\":{\"durationMs\":300,\"result\":\"one session\"},"
                        + "\"task\":{\"ttl\":60000}}");
        String taskId = created.path("result").path("task").path("taskId").asText();
        assertThat(taskId).isNotEmpty();
        for (HttpGateway gateway : List.of(first, second, first, second)) {
            assertThat(call(gateway, ALICE, session, "tasks/get", "{\"taskId\":\"" + taskId + "\"}")
                    .path("result").path("taskId").asText()).isEqualTo(taskId);
        }
        assertThat(post(second, BOB, session, "ping", "{}").statusCode()).isEqualTo(404);

        Application workerApp = AppRoot.production().openWorker(config, WorkerId.of("worker"));
        open.add(workerApp);
        WorkerProcess worker = new WorkerProcess(workerApp);
        worker.start();
        open.add(worker::stop);

        first.close(); // the first gateway stops; a new one on the same store takes its place
        HttpGateway restarted = gateway(config);
        JsonNode result = call(restarted, ALICE, session, "tasks/result", "{\"taskId\":\"" + taskId + "\"}");
        assertThat(result.path("result").path("content").get(0).path("text").asText()).isEqualTo("one session");
        assertThat(call(second, ALICE, session, "tasks/get", "{\"taskId\":\"" + taskId + "\"}")
                .path("result").path("status").asText()).isEqualTo("completed");

        assertThat(delete(restarted, ALICE, session).statusCode()).isEqualTo(200);
        HttpGateway another = gateway(config);
        assertThat(post(another, ALICE, session, "ping", "{}").statusCode()).isEqualTo(404);
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

    private String initialize(HttpGateway gateway, String token) throws Exception {
        HttpResponse<String> response = post(gateway, token, null, "initialize", "{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private JsonNode call(HttpGateway gateway, String token, String session, String method, String params)
            throws Exception {
        HttpResponse<String> response = post(gateway, token, session, method, params);
        assertThat(response.statusCode()).as(method + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> post(HttpGateway gateway, String token, String session, String method,
            String params) throws Exception {
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

    private HttpResponse<String> delete(HttpGateway gateway, String token, String session) throws Exception {
        return http.send(HttpRequest.newBuilder(gateway.endpoint()).timeout(WAIT).DELETE()
                .header("Authorization", "Bearer " + token).header("Mcp-Session-Id", session).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
