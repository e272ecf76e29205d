package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** One in-memory transport to a {@link FakeServer}: records what the client sent and can inject anything back. */
final class FakeTransport implements McpTransport {
    private final FakeServer server;
    private volatile Listener listener;
    final List<JsonNode> sent = new CopyOnWriteArrayList<>();
    final CompletableFuture<Void> closed = new CompletableFuture<>();
    volatile String negotiatedVersion;

    FakeTransport(FakeServer server) {
        this.server = server;
    }

    @Override
    public void start(Listener listener) {
        McpTransportException failure = server.startFailure;
        if (failure != null) {
            server.startFailure = null;
            throw failure;
        }
        this.listener = listener;
    }

    @Override
    public CompletableFuture<Void> send(String message) {
        if (closed.isDone()) {
            return CompletableFuture.failedFuture(
                    new McpTransportException(McpTransportException.Kind.CLOSED, "fake transport closed"));
        }
        JsonNode parsed = FakeServer.json(message);
        sent.add(parsed);
        if (!parsed.has("method") || !parsed.has("id")) {
            return CompletableFuture.completedFuture(null);
        }
        String method = parsed.get("method").asText();
        Map.Entry<String, McpTransportException> failure = server.sendFailure;
        if (failure != null && failure.getKey().equals(method)) {
            server.sendFailure = null;
            return CompletableFuture.failedFuture(failure.getValue());
        }
        FakeServer.Handler handler = server.handlers.get(method);
        try {
            if (handler == null) {
                throw new FakeServer.RpcError(-32601, "Method not found: " + method);
            }
            JsonNode result = handler.handle(this, parsed);
            if (result != null) {
                reply(parsed.get("id").asText(), result);
            }
        } catch (FakeServer.RpcError e) {
            ObjectNode error = FakeServer.JSON.createObjectNode().put("code", e.code).put("message", e.getMessage());
            if (e.data != null) {
                error.set("data", e.data);
            }
            deliver(envelope(parsed.get("id").asText()).set("error", error).toString());
        }
        return CompletableFuture.completedFuture(null);
    }

    private static ObjectNode envelope(String id) {
        return FakeServer.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    }

    void reply(String id, JsonNode result) {
        deliver(envelope(id).set("result", result).toString());
    }

    /** Hands raw inbound text to the session, as a transport thread would. */
    void deliver(String raw) {
        listener.onMessage(raw);
    }

    /** Reports an inbound problem, as a transport thread would. */
    void report(McpTransportException error) {
        listener.onError(error);
    }

    void die(McpTransportException.Kind kind) {
        closed.complete(null);
        listener.onClosed(new McpTransportException(kind, "fake transport died: " + kind));
    }

    List<JsonNode> sent(String method) {
        return sent.stream().filter(m -> method.equals(m.path("method").asText())).toList();
    }

    JsonNode lastRequest(String method) {
        List<JsonNode> all = sent(method);
        return all.get(all.size() - 1);
    }

    @Override
    public void protocolVersionNegotiated(String version) {
        negotiatedVersion = version;
    }

    @Override
    public void close() {
        closed.complete(null);
    }
}
