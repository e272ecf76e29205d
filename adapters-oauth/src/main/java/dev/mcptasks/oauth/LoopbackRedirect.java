package dev.mcptasks.oauth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The loopback redirect of a native app (RFC 8252 section 7.3): {@code http://127.0.0.1:PORT/callback} on the
 * loopback interface only, open for one authorization. The first request to the callback path settles it; the
 * {@code state} check happens in the caller, which knows the expected value.
 */
final class LoopbackRedirect implements AutoCloseable {
    static final String PATH = "/callback";

    private final HttpServer server;
    private final CompletableFuture<Map<String, String>> answer = new CompletableFuture<>();

    LoopbackRedirect(int port) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 0);
        } catch (IOException e) {
            throw new OAuthFailure("cannot listen for the OAuth redirect on 127.0.0.1:" + port + ": " + e.getMessage());
        }
        server.createContext(PATH, this::callback);
        server.start();
    }

    URI redirectUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    }

    private void callback(HttpExchange exchange) throws IOException {
        Map<String, String> query = parse(exchange.getRequestURI().getRawQuery());
        boolean ok = query.containsKey("code");
        byte[] page = ("<!doctype html><title>mcp-tasks</title><p>" + (ok
                ? "Authorized. You can close this window." : "Authorization failed. See the terminal.")
                + "</p>").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(ok ? 200 : 400, page.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(page);
        }
        answer.complete(query);
    }

    /** The redirect's query parameters, or a failure naming the timeout. */
    Map<String, String> await(Duration timeout) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new OAuthFailure("no authorization arrived at " + redirectUri() + " within " + timeout.toSeconds()
                    + " s (was the url opened and the access granted?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OAuthFailure("interrupted while waiting for the authorization redirect");
        } catch (ExecutionException e) {
            throw new OAuthFailure("the authorization redirect failed: " + e.getCause().getMessage());
        }
    }

    static Map<String, String> parse(String rawQuery) {
        Map<String, String> values = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return values;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            values.putIfAbsent(name, value);
        }
        return values;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
