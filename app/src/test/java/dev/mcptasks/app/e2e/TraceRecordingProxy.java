package dev.mcptasks.app.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A plain HTTP proxy in front of an MCP server that answers with JSON (no SSE), recording the W3C trace headers of
 * every POSTed request by JSON-RPC method: what the upstream saw of the trace.
 */
final class TraceRecordingProxy implements AutoCloseable {
    /** One POST as the upstream received it. */
    record Seen(String method, String traceparent, String tracestate, JsonNode meta) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Headers the JDK client sets itself. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "date", "expect", "from",
            "host", "upgrade", "via", "warning");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI target;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    private TraceRecordingProxy(URI target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    static TraceRecordingProxy start(URI target) throws IOException {
        return new TraceRecordingProxy(target);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + target.getPath());
    }

    /** The POSTs of {@code method} so far, in order. */
    List<Seen> seen(String method) {
        return seen.stream().filter(request -> method.equals(request.method())).toList();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if ("POST".equals(exchange.getRequestMethod())) {
                JsonNode message = JSON.readTree(body);
                seen.add(new Seen(message.path("method").asText(null),
                        exchange.getRequestHeaders().getFirst("traceparent"),
                        exchange.getRequestHeaders().getFirst("tracestate"), message.path("params").path("_meta")));
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().getPath()))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
                if (!RESTRICTED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                    header.getValue().forEach(value -> request.header(header.getKey(), value));
                }
            }
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                String lower = name.toLowerCase(Locale.ROOT);
                if (!lower.startsWith(":") && !Set.of("content-length", "transfer-encoding", "connection")
                        .contains(lower)) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
