package dev.mcptasks.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The 2026-07-28 framing on Streamable HTTP: headers derived from the request's envelope, JSON-RPC errors in 4xx
 * bodies delivered as answers, and no session machinery; requests without the envelope keep the 2025 behaviour.
 */
class Framing2026Test {
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}";

    private HttpPeer2026 peer;
    private McpTransport transport;
    private final RecordingListener listener = new RecordingListener();

    @BeforeEach
    void start() throws Exception {
        peer = new HttpPeer2026();
        transport = new HttpTransportFactory().create(new McpServerSpec("peer", null, null, null, null, peer.url(),
                Map.of("Authorization", "Bearer s3cret"), Duration.ofSeconds(5), null, 0));
        transport.start(listener);
    }

    @AfterEach
    void tearDown() {
        transport.close();
        peer.close();
    }

    private static String v2026(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + META + "}}";
    }

    private static void await(CompletableFuture<Void> future) throws Exception {
        future.get(15, TimeUnit.SECONDS);
    }

    private HttpPeer2026.Seen last() {
        return peer.requests.get(peer.requests.size() - 1);
    }

    @Test
    void aTraceContextInTheRequestsMetaIsSentAsTheW3cHeadersAndAMalformedOneIsNot() throws Exception {
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        await(transport.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"t\","
                + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"traceparent\":\"" + parent
                + "\",\"tracestate\":\"vendor=x\"}}}"));
        assertThat(last().headers().get("traceparent")).isEqualTo(parent);
        assertThat(last().headers().get("tracestate")).isEqualTo("vendor=x");

        await(transport.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"t\","
                + "\"_meta\":{\"traceparent\":\"" + parent + "\"}}}"));
        assertThat(last().headers().get("traceparent")).as("the 2025 generation too").isEqualTo(parent);
        assertThat(last().headers().contains("tracestate")).isFalse();

        await(transport.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"t\","
                + "\"_meta\":{\"traceparent\":\"00-zz\\r\\nX-Injected: 1\"}}}"));
        assertThat(last().headers().contains("traceparent")).isFalse();
        assertThat(last().headers().contains("X-Injected")).isFalse();
        await(transport.send(v2026(4, "tasks/get", "\"taskId\":\"t\"")));
        assertThat(last().headers().contains("traceparent")).isFalse();
    }

    @Test
    void headersRepeatTheEnvelopeMethodAndRoutedName() throws Exception {
        await(transport.send(v2026(1, "tools/call", "\"name\":\"work\",\"arguments\":{}")));
        assertThat(last().headers().get("MCP-Protocol-Version")).isEqualTo("2026-07-28");
        assertThat(last().headers().get("Mcp-Method")).isEqualTo("tools/call");
        assertThat(last().headers().get("Mcp-Name")).isEqualTo("work");
        assertThat(last().headers().get("Authorization")).isEqualTo("Bearer s3cret");

        for (String method : new String[] {"tasks/get", "tasks/update", "tasks/cancel"}) {
            await(transport.send(v2026(2, method, "\"taskId\":\"e8ca04a8\"")));
            assertThat(last().headers().get("Mcp-Method")).isEqualTo(method);
            assertThat(last().headers().get("Mcp-Name")).isEqualTo("e8ca04a8");
        }
        await(transport.send(v2026(3, "resources/read", "\"uri\":\"file:///a.txt\"")));
        assertThat(last().headers().get("Mcp-Name")).isEqualTo("file:///a.txt");
        await(transport.send(v2026(4, "prompts/get", "\"name\":\"p\"")));
        assertThat(last().headers().get("Mcp-Name")).isEqualTo("p");

        await(transport.send(v2026(5, "server/discover", "")));
        assertThat(last().headers().get("Mcp-Method")).isEqualTo("server/discover");
        assertThat(last().headers().contains("Mcp-Name")).isFalse();
        assertThat(listener.messages()).hasSize(7);
    }

    @Test
    void nonAsciiNamesUseTheBase64Sentinel() throws Exception {
        await(transport.send(v2026(1, "tools/call", "\"name\":\"résumé\",\"arguments\":{}")));
        String expected = "=?base64?" + Base64.getEncoder().encodeToString("résumé".getBytes(StandardCharsets.UTF_8))
                + "?=";
        assertThat(last().headers().get("Mcp-Name")).isEqualTo(expected);
        assertThat(Frame2026.headerValue(" padded")).startsWith("=?base64?");
        assertThat(Frame2026.headerValue("plain-ascii_1.2")).isEqualTo("plain-ascii_1.2");
    }

    @Test
    void a2026RequestCarriesNoSessionAndOpensNoStream() throws Exception {
        peer.answers = body -> new HttpPeer2026.Reply(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        await(transport.send(v2026(1, "server/discover", "")));
        transport.close();
        assertThat(peer.requests).extracting(HttpPeer2026.Seen::method).containsExactly("POST");
        assertThat(last().headers().contains("Mcp-Session-Id")).isFalse();
    }

    @Test
    void a4xxJsonRpcErrorIsTheRequestsAnswer() throws Exception {
        peer.answers = body -> new HttpPeer2026.Reply(400, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32022,"
                + "\"message\":\"Unsupported protocol version: 2099-01-01\",\"data\":{\"supported\":[\"2026-07-28\"],"
                + "\"requested\":\"2099-01-01\"}},\"id\":7}");
        await(transport.send(v2026(7, "server/discover", "")));
        assertThat(listener.nextMessage()).contains("-32022").contains("\"supported\":[\"2026-07-28\"]")
                .contains("\"id\":7");
    }

    @Test
    void anErrorWithoutIdIsAboutTheRequestItAnswers() throws Exception {
        // the shape of server-everything's and SDK v1's 400 "Server not initialized": the probe reads it as legacy
        peer.answers = body -> new HttpPeer2026.Reply(400, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,"
                + "\"message\":\"Bad Request: Server not initialized\"},\"id\":null}");
        await(transport.send(v2026(9, "server/discover", "")));
        assertThat(listener.nextMessage()).contains("-32000").contains("\"id\":9");
    }

    @Test
    void a4xxWithoutAJsonRpcErrorStaysATransportFailure() {
        peer.answers = body -> new HttpPeer2026.Reply(405, "Method Not Allowed");
        Throwable thrown = catchThrowable(() -> transport.send(v2026(1, "server/discover", "")).get(15,
                TimeUnit.SECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class);
        McpTransportException cause = (McpTransportException) thrown.getCause();
        assertThat(cause.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(cause.httpStatus()).isEqualTo(405);
        assertThat(listener.messages()).isEmpty();
    }

    @Test
    void a2025RequestKeepsTheTransportFailureAndCarriesNo2026Headers() {
        peer.answers = body -> new HttpPeer2026.Reply(400, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,"
                + "\"message\":\"Bad Request\"},\"id\":1}");
        Throwable thrown = catchThrowable(() -> transport.send(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"work\"}}")
                .get(15, TimeUnit.SECONDS));
        assertThat(((McpTransportException) thrown.getCause()).httpStatus()).isEqualTo(400);
        assertThat(last().headers().contains("Mcp-Method")).isFalse();
        assertThat(last().headers().contains("Mcp-Name")).isFalse();
        assertThat(listener.messages()).isEmpty();
    }
}
