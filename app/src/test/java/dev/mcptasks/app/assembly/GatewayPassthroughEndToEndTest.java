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
import dev.mcptasks.ports.Clock;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.reference.ServedGenerations;
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
 * The production assembly of the gateway in front of the reference server with the conformance suite's fixtures:
 * resources, prompts, completion and the log level pass through the real MCP session to the upstream and back,
 * named as configured; an upstream JSON-RPC error arrives with its own code.
 */
class GatewayPassthroughEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private ReferenceServer server;
    private Application gatewayApp;
    private HttpGateway gateway;
    private int nextId = 1;

    @AfterEach
    void close() {
        try {
            if (gateway != null) {
                gateway.close();
            }
        } finally {
            if (gatewayApp != null) {
                gatewayApp.close();
            }
            if (server != null) {
                server.close();
            }
        }
    }

    private void start(boolean unprefixed) throws Exception {
        start(unprefixed, ServedGenerations.V2025_11_25);
    }

    private void start(boolean unprefixed, ServedGenerations upstream) throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults().withConformanceFixtures(true)
                .withGeneration(upstream));
        gatewayApp = AppRoot.production().openGateway(config(server.startHttp(0), unprefixed), null);
        gateway = HttpGateway.start(gatewayApp.get(GatewaySettings.class).withBind("127.0.0.1", 0),
                gatewayApp.get(FrontDoor.class), gatewayApp.get(Clock.class));
    }

    @Test
    void resourcesPromptsCompletionAndLogLevelPassThroughUnderPrefixedNames() throws Exception {
        start(false);
        HttpResponse<String> init = post(null, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        JsonNode capabilities = JSON.readTree(init.body()).path("result").path("capabilities");
        assertThat(capabilities.path("resources").path("subscribe").asBoolean()).isTrue();
        assertThat(capabilities.has("prompts") && capabilities.has("completions") && capabilities.has("logging"))
                .isTrue();

        assertThat(result(session, "resources/list", "{}").path("resources").findValuesAsText("uri"))
                .contains("test://static-text", "test://static-binary");
        assertThat(result(session, "resources/read", "{\"uri\":\"test://static-text\"}").path("contents").path(0)
                .path("text").asText()).isEqualTo("This is the content of the static text resource.");
        assertThat(result(session, "resources/templates/list", "{}").path("resourceTemplates").path(0)
                .path("uriTemplate").asText()).isEqualTo("test://template/{id}/data");
        assertThat(result(session, "resources/read", "{\"uri\":\"test://template/123/data\"}").path("contents")
                .path(0).path("text").asText()).contains("Data for ID: 123");
        assertThat(result(session, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}")).isEmpty();
        assertThat(result(session, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}")).isEmpty();

        assertThat(result(session, "prompts/list", "{}").path("prompts").findValuesAsText("name"))
                .contains("ref__test_simple_prompt", "ref__test_prompt_with_arguments");
        assertThat(result(session, "prompts/get", "{\"name\":\"ref__test_prompt_with_arguments\","
                + "\"arguments\":{\"arg1\":\"one\",\"arg2\":\"two\"}}").path("messages").path(0).path("content")
                .path("text").asText()).isEqualTo("Prompt with arguments: arg1='one', arg2='two'");
        assertThat(result(session, "completion/complete", "{\"ref\":{\"type\":\"ref/prompt\","
                + "\"name\":\"ref__test_prompt_with_arguments\"},\"argument\":{\"name\":\"arg1\",\"value\":\"par\"}}")
                .path("completion").path("values")).containsExactly(JSON.readTree("\"paris\""),
                JSON.readTree("\"park\""), JSON.readTree("\"party\""));
        assertThat(result(session, "logging/setLevel", "{\"level\":\"debug\"}")).isEmpty();

        JsonNode missing = call(session, "resources/read", "{\"uri\":\"test://nothing\"}").path("error");
        assertThat(missing.path("code").asInt()).isEqualTo(-32002);
        assertThat(missing.path("message").asText()).isEqualTo("Resource not found");
        assertThat(missing.path("data").path("uri").asText()).isEqualTo("test://nothing");
    }

    @Test
    void serveUnprefixedServesTheServersOwnNames() throws Exception {
        start(true);
        String session = post(null, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}").headers().firstValue("Mcp-Session-Id")
                .orElseThrow();
        assertThat(result(session, "tools/list", "{}").path("tools").findValuesAsText("name"))
                .contains("test_simple_text", "work");
        assertThat(result(session, "prompts/get", "{\"name\":\"test_simple_prompt\"}").path("messages").path(0)
                .path("content").path("text").asText()).isEqualTo("This is a simple prompt for testing.");
    }

    @Test
    void aClientOfOneGenerationReadsTheResourcesOfAnUpstreamOfTheOther() throws Exception {
        start(false, ServedGenerations.V2026_07_28);
        HttpResponse<String> init = post(null, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        JsonNode capabilities = JSON.readTree(init.body()).path("result").path("capabilities");
        assertThat(capabilities.has("resources") && capabilities.has("prompts")).isTrue();
        assertThat(capabilities.has("logging")).isFalse();

        JsonNode read = result(session, "resources/read", "{\"uri\":\"test://static-text\"}");
        assertThat(read.path("contents").path(0).path("text").asText())
                .isEqualTo("This is the content of the static text resource.");
        assertThat(read.has("resultType")).as("a 2025 answer carries no 2026 field").isFalse();
        assertThat(result(session, "prompts/get", "{\"name\":\"ref__test_simple_prompt\"}").path("messages")
                .path(0).path("content").path("text").asText()).isEqualTo("This is a simple prompt for testing.");
    }

    private AppConfig config(URI endpoint, boolean unprefixed) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("pollIntervalSeconds", 1).put("tickMillis", 100).put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString());
        root.putObject("gateway").put("serveUnprefixed", unprefixed);
        return new ConfigLoader(Map.<String, String>of()::get, dir).parse("gateway.json",
                JSON.writeValueAsString(root));
    }

    private JsonNode result(String session, String method, String params) throws Exception {
        JsonNode answer = call(session, method, params);
        assertThat(answer.has("error")).as("%s answered %s", method, answer).isFalse();
        return answer.path("result");
    }

    private JsonNode call(String session, String method, String params) throws Exception {
        return JSON.readTree(post(session, method, params).body());
    }

    private HttpResponse<String> post(String session, String method, String params) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"" + method + "\",\"params\":"
                + params + "}";
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.endpoint()).timeout(WAIT)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("MCP-Protocol-Version", "2025-11-25").POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
