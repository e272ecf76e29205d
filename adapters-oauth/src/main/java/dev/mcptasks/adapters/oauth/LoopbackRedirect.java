package dev.mcptasks.adapters.oauth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The loopback redirect of a native app (RFC 8252 section 7.3): {@code http://127.0.0.1:PORT/callback} on the
 * loopback interface only, open for one authorization.
 *
 * <p>Invariant: only a request to exactly the callback path carrying this login's {@code state} settles it. Anything
 * else on the port (a favicon, a port scanner, another tab's or a forged redirect) is answered 404 or 400 and the
 * login keeps waiting, so a stray request can neither fail the login nor hand it a code.
 */
final class LoopbackRedirect implements AutoCloseable {
    static final String PATH = "/callback";

    private final HttpServer server;
    private final ExecutorService handlers;
    private final byte[] state;
    private final CompletableFuture<Map<String, String>> answer = new CompletableFuture<>();

    LoopbackRedirect(int port, String state) {
        this.state = state.getBytes(StandardCharsets.UTF_8);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 0);
        } catch (IOException e) {
            throw new OAuthFailure("cannot listen for the OAuth redirect on 127.0.0.1:" + port + ": " + e.getMessage());
        }
        server.createContext(PATH, this::callback);
        // a thread per exchange, not the server's one dispatcher: a client that sends half a request (a scanner,
        // a stalled tab) would hold that thread, and the real redirect would wait behind it until the timeout
        AtomicInteger threads = new AtomicInteger();
        handlers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "oauth-redirect-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(handlers);
        server.start();
    }

    URI redirectUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    }

    private void callback(HttpExchange exchange) throws IOException {
        if (!PATH.equals(exchange.getRequestURI().getPath())) {
            respond(exchange, 404, "Not found.");
            return;
        }
        Map<String, String> query = parse(exchange.getRequestURI().getRawQuery());
        String given = query.get("state");
        // constant time: the state is the only thing that tells this login's redirect from a forged one
        if (given == null || !MessageDigest.isEqual(state, given.getBytes(StandardCharsets.UTF_8))) {
            respond(exchange, 400, "Not the redirect of this login; it is still waiting.");
            return;
        }
        boolean ok = query.containsKey("code");
        respond(exchange, ok ? 200 : 400, ok ? "Authorized. You can close this window."
                : "Authorization failed. See the terminal.");
        answer.complete(query);
    }

    private static void respond(HttpExchange exchange, int status, String text) throws IOException {
        byte[] page = ("<!doctype html><title>mcp-tasks</title><p>" + text + "</p>").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(status, page.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(page);
        }
    }

    /** The query parameters of the redirect that carried this login's state, or a failure naming the timeout. */
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
        handlers.shutdownNow(); // stop closed every connection: a handler reading a half-sent request ends with it
    }
}
