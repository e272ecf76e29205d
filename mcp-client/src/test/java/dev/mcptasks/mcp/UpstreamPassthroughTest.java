package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.catalog.UpstreamErrorException;
import dev.mcptasks.ports.catalog.UpstreamUnavailableException;
import dev.mcptasks.testkit.ManualClock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's pass-through requests over the worker's session: the result as the server sent it, its JSON-RPC
 * error with code, message and data, its capabilities, and its notifications.
 */
class UpstreamPassthroughTest {
    private final FakeServer server = new FakeServer();
    private final McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(FakeServer.spec())),
            List.of(server), new ManualClock(), "test");
    private final UpstreamPassthrough upstream = new UpstreamPassthrough(sessions);

    @AfterEach
    void close() {
        sessions.close();
    }

    @Test
    void aRequestAnswersTheServersResultAndItsErrorWithCodeMessageAndData() throws Exception {
        server.on("resources/read", request -> json("{\"contents\":[{\"uri\":\""
                + request.path("params").path("uri").asText() + "\",\"text\":\"t\"}]}"));
        assertThat(json(upstream.request("fake", "resources/read", "{\"uri\":\"x://1\"}").get(5, TimeUnit.SECONDS)))
                .isEqualTo(json("{\"contents\":[{\"uri\":\"x://1\",\"text\":\"t\"}]}"));

        server.handlers.put("prompts/get", (transport, request) -> {
            throw new FakeServer.RpcError(-32002, "Prompt not found", json("{\"name\":\"p\"}"));
        });
        assertThatThrownBy(() -> upstream.request("fake", "prompts/get", "{\"name\":\"p\"}").get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOfSatisfying(UpstreamErrorException.class,
                        error -> {
                            assertThat(error.code()).isEqualTo(-32002);
                            assertThat(error.remoteMessage()).isEqualTo("Prompt not found");
                            assertThat(json(error.dataJson())).isEqualTo(json("{\"name\":\"p\"}"));
                        });
        assertThatThrownBy(() -> upstream.request("nope", "prompts/list", "{}").get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("'nope'");
    }

    @Test
    void capabilitiesAreTheServersAndItsNotificationsReachTheListeners() throws Exception {
        server.capabilities = json("{\"resources\":{\"subscribe\":true},\"prompts\":{}}");
        List<String> heard = new CopyOnWriteArrayList<>();
        upstream.onNotification((serverName, method, params) -> heard.add(serverName + " " + method + " " + params));
        assertThat(json(upstream.capabilities("fake").get(5, TimeUnit.SECONDS)))
                .isEqualTo(json("{\"resources\":{\"subscribe\":true},\"prompts\":{}}"));

        server.transports.get(0).deliver("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\","
                + "\"params\":{\"uri\":\"x://1\"}}");
        assertThat(heard).containsExactly("fake notifications/resources/updated {\"uri\":\"x://1\"}");
    }
}
