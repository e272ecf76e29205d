package dev.mcptasks.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A second HTTP hop and nothing else: a stateless relay (the JDK's HTTP server and client) that passes each request
 * to the upstream and its answer back, storing nothing. Next to the direct call it shows what an extra hop alone takes
 * from the machine's cores, whatever stands in it; the gateway's figures beside it add its own work (the store, the
 * worker, MCP sessions) on a faster HTTP stack (Netty).
 */
final class PlainRelay implements AutoCloseable {
    static {
        // the JDK's server writes an answer's head and body apart: without TCP_NODELAY, Nagle's algorithm holds the
        // body until the client's delayed ACK (some 40 ms). Read once, when the first server of the JVM is made.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** Request and answer headers the relay passes on (MCP's session and protocol headers among them). */
    private static final List<String> PASSED = List.of("Content-Type", "Accept", "Mcp-Session-Id",
            "Mcp-Protocol-Version");

    private final HttpServer server;
    private final ExecutorService handlers;
    private final HttpClient upstreamClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI upstream;

    private PlainRelay(URI upstream, int threads) throws IOException {
        this.upstream = upstream;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        this.handlers = Executors.newFixedThreadPool(threads);
        server.setExecutor(handlers);
        server.createContext("/", this::relay);
        server.start();
    }

    /** Starts a relay to {@code upstream} on a free loopback port, answering {@code threads} requests at once. */
    static PlainRelay start(URI upstream, int threads) throws IOException {
        return new PlainRelay(upstream, threads);
    }

    /** Where clients reach the upstream through the relay. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + upstream.getRawPath());
    }

    private void relay(HttpExchange exchange) throws IOException {
        try {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(upstream).timeout(Duration.ofSeconds(30))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            for (String header : PASSED) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            HttpResponse<byte[]> answer;
            try {
                answer = send(request.build());
            } catch (IOException e) {
                byte[] why = ("the relay's upstream failed: " + e).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(502, why.length);
                try (OutputStream stream = exchange.getResponseBody()) {
                    stream.write(why);
                }
                return;
            }
            for (String header : PASSED) {
                answer.headers().firstValue(header).ifPresent(value -> exchange.getResponseHeaders().set(header,
                        value));
            }
            byte[] out = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream stream = exchange.getResponseBody()) {
                    stream.write(out);
                }
            }
        } finally {
            exchange.close();
        }
    }

    /**
     * Sends {@code request} upstream, once more when the first attempt finds its pooled connection closed under it
     * (the JDK's client then fails a request the server never read: safe to send again, as any relay would).
     */
    private HttpResponse<byte[]> send(HttpRequest request) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return upstreamClient.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } catch (IOException e) {
                if (attempt == 2) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
    }
}
