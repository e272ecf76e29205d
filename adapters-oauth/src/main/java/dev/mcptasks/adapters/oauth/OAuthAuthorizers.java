package dev.mcptasks.adapters.oauth;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.secret.SecretRedactor;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** One {@link ServerAuthorizer} per configured server name; the login commands work on the same instances. */
final class OAuthAuthorizers implements HttpAuthorizers, OAuthLogins {
    static final Duration REDIRECT_TIMEOUT = Duration.ofMinutes(5);
    static final Duration REFRESH_SKEW = Duration.ofSeconds(60);
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(30);
    private static final String PROTOCOL_VERSION = "2025-11-25";

    private final Map<String, OAuthSettings> byServer;
    private final OAuthContext context;
    private final Map<String, ServerAuthorizer> authorizers = new ConcurrentHashMap<>();

    OAuthAuthorizers(Map<String, OAuthSettings> byServer, TokenSeal seal, CredentialStore store, Clock clock,
            SecretRedactor secrets) {
        this(byServer, defaultContext(seal, store, clock, secrets));
    }

    OAuthAuthorizers(Map<String, OAuthSettings> byServer, OAuthContext context) {
        this.byServer = Map.copyOf(byServer);
        this.context = context;
    }

    private static OAuthContext defaultContext(TokenSeal seal, CredentialStore store, Clock clock,
            SecretRedactor secrets) {
        AtomicInteger threads = new AtomicInteger();
        // Flows block (network, store, a browser login waits minutes) and run at most one per server at a time:
        // a cached pool of daemon threads, so no flow waits behind another server's and none keeps the JVM alive.
        ExecutorService executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "oauth-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor).build();
        return new OAuthContext(seal, store, clock, new OAuthHttp(client, HTTP_TIMEOUT), executor, Browser::command,
                REDIRECT_TIMEOUT, REFRESH_SKEW, secrets);
    }

    @Override
    public HttpAuthorizer forServer(McpServerSpec server) {
        if (server.url() == null || !byServer.containsKey(server.name())) {
            return HttpAuthorizer.NONE;
        }
        return authorizer(server.name(), server.url(), true);
    }

    private ServerAuthorizer authorizer(String name, URI endpoint, boolean preload) {
        boolean[] created = {false};
        ServerAuthorizer authorizer = authorizers.computeIfAbsent(name, n -> {
            created[0] = true;
            return new ServerAuthorizer(n, byServer.get(n), context);
        });
        authorizer.bind(endpoint);
        if (preload && created[0]) {
            authorizer.preload();
        }
        return authorizer;
    }

    @Override
    public LoginOutcome login(McpServerSpec server, PrintStream progress) {
        if (!byServer.containsKey(server.name())) {
            return new LoginOutcome.Failed("server '" + server.name() + "' has no oauth configuration");
        }
        if (server.url() == null) {
            return new LoginOutcome.Failed("server '" + server.name() + "' is not an HTTP server");
        }
        Challenge challenge;
        try {
            challenge = probe(server);
        } catch (OAuthFailure e) {
            return new LoginOutcome.Failed("server '" + server.name() + "': " + e.getMessage());
        }
        return authorizer(server.name(), server.url(), false).login(progress, challenge, server.url());
    }

    /**
     * Asks the server for its challenge the way a session starts: an {@code initialize} without credentials and,
     * when that is accepted (some servers guard only later requests), a {@code tools/list} in the session. A
     * legacy SSE endpoint is not probed (its GET stream never ends): discovery then uses the well-known urls.
     */
    Challenge probe(McpServerSpec server) {
        if (McpServerSpec.SSE.equals(server.transport())) {
            return Challenge.EMPTY;
        }
        Map<String, String> headers = new TreeMap<>(server.headers());
        headers.remove("Authorization");
        headers.remove("authorization");
        OAuthHttp.Reply initialize = context.http().probe(server.url(), "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + PROTOCOL_VERSION + "\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp-tasks-login\",\"version\":\"1\"}}}", headers);
        if (initialize.status() == 401 || initialize.status() == 403) {
            return Challenge.parse(initialize.headers().firstValue("WWW-Authenticate").orElse(null));
        }
        if (!initialize.ok()) {
            return Challenge.EMPTY;
        }
        initialize.headers().firstValue("Mcp-Session-Id").ifPresent(id -> headers.put("Mcp-Session-Id", id));
        headers.put("MCP-Protocol-Version", PROTOCOL_VERSION);
        context.http().probe(server.url(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                headers);
        OAuthHttp.Reply list = context.http().probe(server.url(),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}", headers);
        if (list.status() == 401 || list.status() == 403) {
            return Challenge.parse(list.headers().firstValue("WWW-Authenticate").orElse(null));
        }
        return Challenge.EMPTY;
    }

    @Override
    public boolean logout(String serverName) {
        if (!byServer.containsKey(serverName)) {
            return context.store().delete(ServerAuthorizer.key(serverName));
        }
        return authorizer(serverName, null, false).logout();
    }

    @Override
    public List<CredentialStatus> status() {
        List<CredentialStatus> statuses = new ArrayList<>();
        for (String name : new TreeMap<>(byServer).keySet()) {
            statuses.add(authorizer(name, null, false).status());
        }
        return statuses;
    }

    /** For tests: the challenge path without a transport. */
    ServerAuthorizer authorizerFor(String name) {
        return authorizer(name, null, false);
    }

}
