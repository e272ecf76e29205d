package dev.mcptasks.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OAuth-protected MCP server and its authorization server in one loopback HTTP server (JDK HttpServer): protected
 * resource metadata (RFC 9728) named by the 401's {@code WWW-Authenticate}, authorization server metadata (RFC 8414),
 * a token endpoint for client credentials and authorization codes (one pre-registered client, client_secret_basic),
 * an authorize endpoint that
 * redirects at once (the person always consents), and an MCP endpoint answering JSON: {@code initialize},
 * {@code tools/list} with one plain tool {@code echo}, and {@code tools/call}. {@link #revoke()} invalidates every
 * token and refuses new ones, as an administrator who disabled the client would.
 */
final class FakeOAuthServer implements AutoCloseable {
    static final String CLIENT_ID = "robot";
    static final String CLIENT_SECRET = "robot-secret";

    private final HttpServer http;
    private final Set<String> validTokens = ConcurrentHashMap.newKeySet();
    private final AtomicInteger issued = new AtomicInteger();
    private final AtomicInteger toolCalls = new AtomicInteger();
    private final AtomicInteger authorizeRequests = new AtomicInteger();
    private final AtomicBoolean revoked = new AtomicBoolean();

    FakeOAuthServer() throws IOException {
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", this::handle);
        http.start();
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort());
    }

    URI mcpUrl() {
        return base().resolve("/mcp");
    }

    int tokensIssued() {
        return issued.get();
    }

    int toolCalls() {
        return toolCalls.get();
    }

    int authorizeRequests() {
        return authorizeRequests.get();
    }

    void revoke() {
        revoked.set(true);
        validTokens.clear();
    }

    @Override
    public void close() {
        http.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/mcp") && method.equals("POST")) {
                mcp(exchange);
            } else if (path.equals("/mcp")) {
                send(exchange, 405, null, null);
            } else if (path.equals("/.well-known/oauth-protected-resource/mcp")) {
                ObjectNode prm = TaskJson.MAPPER.createObjectNode().put("resource", mcpUrl().toString());
                prm.putArray("authorization_servers").add(base().toString());
                send(exchange, 200, prm, null);
            } else if (path.equals("/.well-known/oauth-authorization-server")) {
                send(exchange, 200, metadata(), null);
            } else if (path.equals("/authorize")) {
                authorize(exchange);
            } else if (path.equals("/token") && method.equals("POST")) {
                token(exchange);
            } else {
                send(exchange, 404, TaskJson.MAPPER.createObjectNode().put("error", "not_found"), null);
            }
        } catch (RuntimeException e) {
            send(exchange, 500, TaskJson.MAPPER.createObjectNode().put("error", e.toString()), null);
        }
    }

    private ObjectNode metadata() {
        ObjectNode metadata = TaskJson.MAPPER.createObjectNode().put("issuer", base().toString())
                .put("authorization_endpoint", base().resolve("/authorize").toString())
                .put("token_endpoint", base().resolve("/token").toString());
        metadata.putArray("response_types_supported").add("code");
        metadata.putArray("grant_types_supported").add("authorization_code").add("client_credentials")
                .add("refresh_token");
        metadata.putArray("code_challenge_methods_supported").add("S256");
        metadata.putArray("token_endpoint_auth_methods_supported").add("client_secret_basic");
        return metadata;
    }

    private void mcp(HttpExchange exchange) throws IOException {
        JsonNode request = TaskJson.MAPPER.readTree(exchange.getRequestBody());
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        boolean valid = authorization != null && authorization.startsWith("Bearer ")
                && validTokens.contains(authorization.substring("Bearer ".length()));
        if (!valid) {
            send(exchange, 401, TaskJson.MAPPER.createObjectNode().put("error", "invalid_token"),
                    "Bearer resource_metadata=\"" + base().resolve("/.well-known/oauth-protected-resource/mcp")
                            + "\"");
            return;
        }
        String rpc = request.path("method").asText();
        if (!request.has("id")) {
            send(exchange, 202, null, null);
            return;
        }
        ObjectNode result = TaskJson.MAPPER.createObjectNode();
        switch (rpc) {
            case "initialize" -> {
                result.put("protocolVersion", request.path("params").path("protocolVersion").asText("2025-11-25"));
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "fake-oauth-mcp").put("version", "1");
            }
            case "tools/list" -> result.putArray("tools").addObject().put("name", "echo")
                    .putObject("inputSchema").put("type", "object");
            case "tools/call" -> {
                toolCalls.incrementAndGet();
                result.putArray("content").addObject().put("type", "text")
                        .put("text", "echo " + request.path("params").path("arguments"));
            }
            case "ping" -> { }
            default -> {
                ObjectNode error = TaskJson.MAPPER.createObjectNode().put("jsonrpc", "2.0");
                error.set("id", request.get("id"));
                error.putObject("error").put("code", -32601).put("message", "no method " + rpc);
                send(exchange, 200, error, null);
                return;
            }
        }
        ObjectNode response = TaskJson.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        response.set("id", request.get("id"));
        response.set("result", result);
        send(exchange, 200, response, null);
    }

    private void authorize(HttpExchange exchange) throws IOException {
        authorizeRequests.incrementAndGet();
        Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
        String location = query.get("redirect_uri") + "?code=code-" + authorizeRequests.get() + "&state="
                + query.get("state");
        exchange.getResponseHeaders().set("Location", location);
        send(exchange, 302, null, null);
    }

    private void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String grant = form.get("grant_type");
        String basic = "Basic " + Base64.getEncoder().encodeToString((CLIENT_ID + ":" + CLIENT_SECRET)
                .getBytes(StandardCharsets.UTF_8));
        if (revoked.get() || !basic.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            send(exchange, 401, TaskJson.MAPPER.createObjectNode().put("error", "invalid_client"), null);
            return;
        }
        String token = "token-" + issued.incrementAndGet();
        validTokens.add(token);
        ObjectNode body = TaskJson.MAPPER.createObjectNode().put("access_token", token).put("token_type", "Bearer")
                .put("expires_in", 3600);
        if (!"client_credentials".equals(grant)) {
            body.put("refresh_token", "refresh-" + issued.get());
        }
        send(exchange, 200, body, null);
    }

    private static Map<String, String> form(String raw) {
        Map<String, String> values = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return values;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? "" : pair.substring(equals + 1);
            values.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return values;
    }

    private static void send(HttpExchange exchange, int status, JsonNode body, String wwwAuthenticate) {
        try {
            if (wwwAuthenticate != null) {
                exchange.getResponseHeaders().set("WWW-Authenticate", wwwAuthenticate);
            }
            if (body == null) {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            byte[] bytes = TaskJson.MAPPER.writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
