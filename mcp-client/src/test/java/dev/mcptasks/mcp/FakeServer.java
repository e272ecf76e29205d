package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A scripted in-memory MCP server for session and driver tests, with the transport factory that reaches it.
 * Requests are answered synchronously inside {@code send}, like an HTTP transport whose send completes after the
 * response was handed over; a handler returning null holds its answer for the test to deliver.
 */
final class FakeServer implements McpTransportFactory {
    static final ObjectMapper JSON = new ObjectMapper();

    /** Produces a request's result, throws {@link RpcError} for an error answer, or returns null to hold it. */
    interface Handler {
        JsonNode handle(FakeTransport transport, JsonNode request);
    }

    /** A JSON-RPC error answer thrown by a handler. */
    static final class RpcError extends RuntimeException {
        final int code;
        final JsonNode data;

        RpcError(int code, String message) {
            this(code, message, null);
        }

        RpcError(int code, String message, JsonNode data) {
            super(message);
            this.code = code;
            this.data = data;
        }
    }

    final Map<String, Handler> handlers = new ConcurrentHashMap<>();
    final List<FakeTransport> transports = new CopyOnWriteArrayList<>();
    final AtomicInteger initializations = new AtomicInteger();
    volatile String version = "2025-11-25";
    volatile JsonNode capabilities = json("{\"tools\":{\"listChanged\":true},\"tasks\":{\"list\":{},\"cancel\":{},"
            + "\"requests\":{\"tools\":{\"call\":{}}}}}");
    /** When set, the next transport fails to start with it. */
    volatile McpTransportException startFailure;
    /** When set, sending a request with this method fails with the exception instead of being answered. */
    volatile Map.Entry<String, McpTransportException> sendFailure;

    FakeServer() {
        handlers.put("initialize", (transport, request) -> {
            initializations.incrementAndGet();
            ObjectNode result = JSON.createObjectNode().put("protocolVersion", version);
            result.set("capabilities", capabilities);
            result.set("serverInfo", json("{\"name\":\"fake\",\"version\":\"1\"}"));
            result.put("vendorExtension", "kept");
            return result;
        });
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    void on(String method, Handler handler) {
        handlers.put(method, handler);
    }

    void on(String method, Function<JsonNode, JsonNode> answer) {
        handlers.put(method, (transport, request) -> answer.apply(request));
    }

    FakeTransport last() {
        return transports.get(transports.size() - 1);
    }

    static McpServerSpec spec() {
        return McpServerSpec.http("fake", URI.create("http://127.0.0.1:1/mcp"), Map.of());
    }

    @Override
    public String kind() {
        return "fake";
    }

    @Override
    public boolean supports(McpServerSpec spec) {
        return true;
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        FakeTransport transport = new FakeTransport(this);
        transports.add(transport);
        return transport;
    }
}
