package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An authorization server and protected resource in one HTTP server (like the conformance suite's), configured
 * per test through its public fields, recording every request.
 */
final class FakeOAuthServer implements AutoCloseable {
    record Request(String method, String path, Map<String, String> query, Map<String, String> form,
            String authorization, String body) {
    }

    // protected resource metadata: where it is served (null: nowhere) and what it says
    String prmPath = "/.well-known/oauth-protected-resource/mcp";
    String prmResource; // null: base + /mcp
    List<String> prmScopes; // null: not listed
    String asPrefix = ""; // the authorization server's issuer path
    String prmServer; // the authorization server the resource metadata names (null: issuer())
    String issuerClaim; // the issuer its metadata names (null: issuer())
    String tokenEndpoint; // the token endpoint its metadata names (null: issuer() + /token)
    // authorization server metadata: where it is served (null: nowhere)
    String asMetadataPath = "/.well-known/oauth-authorization-server";
    List<String> authMethods = List.of("none", "client_secret_basic", "client_secret_post", "private_key_jwt");
    boolean cimdSupported;
    List<String> codeChallengeMethods = List.of("S256"); // null: not listed
    boolean registration = true;
    String wwwAuthenticate; // the MCP endpoint's 401 header (null: a default with resource_metadata)
    // the token endpoint's answer to a request, or null for the default (a new token)
    volatile Function<Request, Reply> tokenHandler;
    // the redirect the authorization endpoint sends (tests can corrupt the state)
    volatile Function<Map<String, String>, Map<String, String>> redirectParams = query -> query;
    long expiresIn = 3600;
    boolean issueRefreshTokens = true;

    final List<Request> requests = new CopyOnWriteArrayList<>();
    final AtomicInteger tokens = new AtomicInteger();
    private final HttpServer server;

    record Reply(int status, String json) {
    }

    FakeOAuthServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "fake-oauth");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    URI mcp() {
        return URI.create(base() + "/mcp");
    }

    String issuer() {
        return base() + asPrefix;
    }

    String prmUrl() {
        return base() + prmPath;
    }

    List<String> paths() {
        return requests.stream().map(Request::path).toList();
    }

    List<Request> to(String path) {
        return requests.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getPath();
        Map<String, String> query = LoopbackRedirect.parse(exchange.getRequestURI().getRawQuery());
        Map<String, String> form = "application/x-www-form-urlencoded".equals(
                exchange.getRequestHeaders().getFirst("Content-Type")) ? LoopbackRedirect.parse(body) : Map.of();
        Request request = new Request(exchange.getRequestMethod(), path, query, form,
                exchange.getRequestHeaders().getFirst("Authorization"), body);
        requests.add(request);
        if (path.equals(prmPath) && exchange.getRequestMethod().equals("GET")) {
            ObjectNode prm = OAuthHttp.JSON.createObjectNode();
            prm.put("resource", prmResource != null ? prmResource : base() + "/mcp");
            prm.putArray("authorization_servers").add(prmServer != null ? prmServer : issuer());
            if (prmScopes != null) {
                prmScopes.forEach(prm.withArray("scopes_supported")::add);
            }
            send(exchange, 200, prm.toString());
        } else if (path.equals(asMetadataPath) && exchange.getRequestMethod().equals("GET")) {
            ObjectNode as = OAuthHttp.JSON.createObjectNode();
            as.put("issuer", issuerClaim != null ? issuerClaim : issuer());
            as.put("authorization_endpoint", issuer() + "/authorize");
            as.put("token_endpoint", tokenEndpoint != null ? tokenEndpoint : issuer() + "/token");
            if (registration) {
                as.put("registration_endpoint", issuer() + "/register");
            }
            authMethods.forEach(as.withArray("token_endpoint_auth_methods_supported")::add);
            if (codeChallengeMethods != null) {
                codeChallengeMethods.forEach(as.withArray("code_challenge_methods_supported")::add);
            }
            if (cimdSupported) {
                as.put("client_id_metadata_document_supported", true);
            }
            send(exchange, 200, as.toString());
        } else if (path.equals(asPrefix + "/authorize")) {
            Map<String, String> params = new java.util.LinkedHashMap<>();
            params.put("code", "code-" + tokens.get());
            if (query.containsKey("state")) {
                params.put("state", query.get("state"));
            }
            params = redirectParams.apply(params);
            exchange.getResponseHeaders().set("Location", query.get("redirect_uri") + "?"
                    + OAuthHttp.formEncode(params));
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        } else if (path.equals(asPrefix + "/token") && exchange.getRequestMethod().equals("POST")) {
            Function<Request, Reply> handler = tokenHandler;
            Reply reply = handler != null ? handler.apply(request) : null;
            if (reply == null) {
                reply = token(form.get("scope"));
            }
            send(exchange, reply.status(), reply.json());
        } else if (path.equals(asPrefix + "/register") && exchange.getRequestMethod().equals("POST")) {
            ObjectNode client = OAuthHttp.JSON.createObjectNode();
            client.put("client_id", "registered-" + to(asPrefix + "/register").size());
            String method = OAuthHttp.JSON.readTree(body).path("token_endpoint_auth_method").asText("none");
            if (!method.equals("none")) {
                client.put("client_secret", "registered-secret");
            }
            client.put("token_endpoint_auth_method", method);
            send(exchange, 201, client.toString());
        } else if (path.equals("/mcp")) {
            exchange.getResponseHeaders().set("WWW-Authenticate", wwwAuthenticate != null ? wwwAuthenticate
                    : "Bearer error=\"invalid_token\", resource_metadata=\"" + prmUrl() + "\"");
            send(exchange, 401, "{\"error\":\"invalid_token\"}");
        } else {
            send(exchange, 404, "{\"error\":\"not_found\"}");
        }
    }

    /** A new token for {@code scope} (echoed back), the default answer of the token endpoint. */
    Reply token(String scope) {
        int n = tokens.incrementAndGet();
        ObjectNode json = OAuthHttp.JSON.createObjectNode();
        json.put("access_token", "token-" + n);
        json.put("token_type", "Bearer");
        json.put("expires_in", expiresIn);
        if (issueRefreshTokens) {
            json.put("refresh_token", "refresh-" + n);
        }
        if (scope != null) {
            json.put("scope", scope);
        }
        return new Reply(200, json.toString());
    }

    static Reply error(int status, String error) {
        return new Reply(status, "{\"error\":\"" + error + "\",\"error_description\":\"refused by the test\"}");
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
