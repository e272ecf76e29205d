package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Streamable HTTP MCP endpoint (JDK HTTP server) that answers {@code initialize} and {@code echo} properly and
 * misbehaves on demand: {@code fail500}, {@code brokenSse} (a stream cut mid-event, without event ids),
 * {@code garbageThenAnswer} (junk SSE events before the answer), {@code oversized}, {@code sessionGone} (404).
 */
final class MisbehavingHttpPeer implements AutoCloseable {
    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    final AtomicInteger initializations = new AtomicInteger();

    MisbehavingHttpPeer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/mcp", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    private void handle(HttpExchange exchange) throws IOException {
        if (answer(exchange)) {
            exchange.close();
        }
    }

    /** Answers one exchange; false when the connection was cut on purpose and must not be closed cleanly. */
    private boolean answer(HttpExchange exchange) throws IOException {
        {
            if (!"POST".equals(exchange.getRequestMethod())) {
                reply(exchange, "DELETE".equals(exchange.getRequestMethod()) ? 200 : 405, "text/plain", "");
                return true;
            }
            JsonNode message = json.readTree(exchange.getRequestBody());
            if (!message.has("id")) {
                reply(exchange, 202, "text/plain", "");
                return true;
            }
            String id = message.get("id").toString();
            switch (message.path("method").asText()) {
                case "initialize" -> {
                    initializations.incrementAndGet();
                    exchange.getResponseHeaders().add("Mcp-Session-Id", "s-" + initializations.get());
                    reply(exchange, 200, "application/json", result(id, "{\"protocolVersion\":\"2025-11-25\","
                            + "\"capabilities\":{},\"serverInfo\":{\"name\":\"misbehaving\",\"version\":\"1\"}}"));
                }
                case "fail500" -> reply(exchange, 500, "text/plain", "internal trouble");
                case "sessionGone" -> reply(exchange, 404, "application/json",
                        "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32001,\"message\":\"Session not found\"}}");
                case "brokenSse" -> brokenStream(exchange, id);
                case "garbageThenAnswer" -> reply(exchange, 200, "text/event-stream",
                        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":987654,\"result\":{}}\n\n"
                        + "event: message\ndata: [1,2]\n\n"
                        + "event: message\ndata: {not json\n\n"
                        + "event: message\ndata: " + result(id, "{\"survived\":true}") + "\n\n");
                case "oversized" -> reply(exchange, 200, "application/json",
                        result(id, "{\"pad\":\"" + "x".repeat(200_000) + "\"}"));
                default -> reply(exchange, 200, "application/json", result(id, "{\"echo\":" + message.path("params")
                        + "}"));
            }
            return true;
        }
    }

    /**
     * Starts a chunked SSE answer, writes half an event and throws: the JDK server then drops the connection
     * without the final chunk, so the client sees a stream cut mid-event with no event id to resume from.
     */
    private static void brokenStream(HttpExchange exchange, String id) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream body = exchange.getResponseBody();
        body.write(("data: \n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"res")
                .getBytes(StandardCharsets.UTF_8));
        body.flush();
        throw new IllegalStateException("stream cut on purpose");
    }

    private static void reply(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    private static String result(String id, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
