package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Stateless 2026-07-28 requests: no session, SEP-2243 headers checked against the body, POST only. */
class Http2026Test {
    private static final String ENVELOPE = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";

    private GatewayFixture fixture;

    @BeforeEach
    void start() {
        fixture = new GatewayFixture();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static String call(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + ENVELOPE + "}}";
    }

    private WireClient.Request v2026(String method, String params) {
        return fixture.client.post(call(method, params))
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method);
    }

    @Test
    void a2026RequestIsDispatchedWithoutASession() throws Exception {
        try (WireClient.Response response = v2026("tools/call", "\"name\":\"echo\"").header("Mcp-Name", "echo")
                .send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header(HttpReplies.SESSION_ID)).isNull();
            assertThat(response.json().path("result").path("method").asText()).isEqualTo("tools/call");
        }
        FrontRequest request = fixture.dispatcher.next("tools/call");
        assertThat(request.session()).isNull();
        assertThat(request.principal()).isEqualTo(GatewaySettings.DEFAULT_ANONYMOUS_PRINCIPAL);
    }

    @Test
    void aMissingProtocolVersionHeaderIsAHeaderMismatch() {
        try (WireClient.Response response = v2026("server/discover", "")
                .header("MCP-Protocol-Version", null).send()) {
            assertMismatch(response, "MCP-Protocol-Version");
        }
    }

    @Test
    void aProtocolVersionHeaderThatDisagreesWithTheEnvelopeIsAHeaderMismatch() {
        try (WireClient.Response response = v2026("server/discover", "")
                .header("MCP-Protocol-Version", "2025-11-25").send()) {
            assertMismatch(response, "MCP-Protocol-Version");
        }
    }

    @Test
    void aMissingOrWrongMcpMethodIsAHeaderMismatch() {
        try (WireClient.Response missing = v2026("server/discover", "").header("Mcp-Method", null).send()) {
            assertMismatch(missing, "Mcp-Method");
        }
        try (WireClient.Response wrong = v2026("server/discover", "").header("Mcp-Method", "tools/list").send()) {
            assertMismatch(wrong, "Mcp-Method");
        }
    }

    @Test
    void mcpNameMustNameTheTaskOfATasksRequest() throws Exception {
        try (WireClient.Response missing = v2026("tasks/get", "\"taskId\":\"t-1\"").send()) {
            assertMismatch(missing, "Mcp-Name");
        }
        try (WireClient.Response wrong = v2026("tasks/get", "\"taskId\":\"t-1\"").header("Mcp-Name", "t-2").send()) {
            assertMismatch(wrong, "Mcp-Name");
        }
        try (WireClient.Response right = v2026("tasks/get", "\"taskId\":\"t-1\"").header("Mcp-Name", "t-1").send()) {
            assertThat(right.status()).isEqualTo(200);
        }
        assertThat(fixture.dispatcher.next("tasks/get").message().path("params").path("taskId").asText())
                .isEqualTo("t-1");
    }

    @Test
    void aNonAsciiNameArrivesInTheBase64Sentinel() {
        String name = "résumé-tool";
        String sentinel = "=?base64?" + Base64.getEncoder().encodeToString(name.getBytes(StandardCharsets.UTF_8))
                + "?=";
        try (WireClient.Response right = v2026("tools/call", "\"name\":\"" + name + "\"")
                .header("Mcp-Name", sentinel).send()) {
            assertThat(right.status()).isEqualTo(200);
        }
        try (WireClient.Response plain = v2026("tools/call", "\"name\":\"" + name + "\"")
                .header("Mcp-Name", "=?base64?" + Base64.getEncoder().encodeToString(
                        "resume-tool".getBytes(StandardCharsets.UTF_8)) + "?=").send()) {
            assertMismatch(plain, "Mcp-Name");
        }
        try (WireClient.Response broken = v2026("tools/call", "\"name\":\"" + name + "\"")
                .header("Mcp-Name", "=?base64?%%%?=").send()) {
            assertMismatch(broken, "Mcp-Name");
        }
    }

    @Test
    void a2026HeaderWithoutTheEnvelopeIsInvalidParamsWith400() {
        try (WireClient.Response response = fixture.client
                .post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"t\"}}")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tasks/get")
                .header("Mcp-Name", "t").send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_PARAMS);
            assertThat(response.json().path("id").asInt()).isEqualTo(8);
        }
    }

    @Test
    void theDispatchersEdgeErrorsGetTheirHttpStatus() {
        fixture.dispatcher.answer("tasks/result", request -> CompletableFuture.completedFuture(
                Optional.of(FakeDispatcher.error(request, JsonRpc.METHOD_NOT_FOUND, "Method not found"))));
        fixture.dispatcher.answer("server/discover", request -> CompletableFuture.completedFuture(
                Optional.of(FakeDispatcher.error(request, JsonRpc.UNSUPPORTED_PROTOCOL_VERSION, "unsupported"))));
        fixture.dispatcher.answer("tasks/cancel", request -> CompletableFuture.completedFuture(
                Optional.of(FakeDispatcher.error(request, JsonRpc.INVALID_PARAMS, "Task not found"))));
        try (WireClient.Response removed = v2026("tasks/result", "\"taskId\":\"t\"").send()) {
            assertThat(removed.status()).isEqualTo(404);
        }
        try (WireClient.Response version = v2026("server/discover", "").send()) {
            assertThat(version.status()).isEqualTo(400);
        }
        try (WireClient.Response unknownTask = v2026("tasks/cancel", "\"taskId\":\"t\"").header("Mcp-Name", "t")
                .send()) {
            assertThat(unknownTask.status()).isEqualTo(200);
        }
    }

    @Test
    void a2026NotificationIsAcceptedWithoutHeaders() throws Exception {
        String notification = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
                + "\"requestId\":3," + ENVELOPE + "}}";
        try (WireClient.Response response = fixture.client.post(notification).send()) {
            assertThat(response.status()).isEqualTo(202);
        }
        assertThat(fixture.dispatcher.next("notifications/cancelled").session()).isNull();
    }

    @Test
    void getAndDeleteAnswer405WithAllowPostIn2026() {
        try (WireClient.Response get = fixture.client.get().header("MCP-Protocol-Version", "2026-07-28").send()) {
            assertThat(get.status()).isEqualTo(405);
            assertThat(get.header("Allow")).isEqualTo("POST");
        }
        try (WireClient.Response delete = fixture.client.delete().header("MCP-Protocol-Version", "2026-07-28")
                .send()) {
            assertThat(delete.status()).isEqualTo(405);
            assertThat(delete.header("Allow")).isEqualTo("POST");
        }
    }

    @Test
    void aSlow2026AnswerStreamsWithoutEventIdsAndTheClientLeavingCancelsIt() throws Exception {
        fixture.close();
        fixture = new GatewayFixture(GatewaySettings.defaults().withStreaming(
                new GatewaySettings.Streaming(java.time.Duration.ZERO, java.time.Duration.ZERO,
                        java.time.Duration.ofSeconds(1), java.time.Duration.ZERO)));
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        WireClient.Response response = v2026("tools/call", "\"name\":\"slow\"").header("Mcp-Name", "slow").send();
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("Content-Type")).isEqualTo("text/event-stream");
        fixture.dispatcher.next("tools/call");
        response.close();
        // The 2026 transport defines a closed answer stream as the request's cancellation.
        assertThat(gate).failsWithin(java.time.Duration.ofSeconds(10));
        assertThat(gate.isCancelled()).isTrue();
    }

    private static void assertMismatch(WireClient.Response response, String header) {
        assertThat(response.status()).isEqualTo(400);
        ObjectNode body = response.json();
        assertThat(body.path("error").path("code").asInt()).isEqualTo(JsonRpc.HEADER_MISMATCH);
        assertThat(body.path("error").path("data").path("mismatch").path("header").asText()).isEqualTo(header);
        assertThat(body.path("id").asInt()).isEqualTo(5);
    }
}
