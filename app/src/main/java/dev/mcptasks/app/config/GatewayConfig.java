package dev.mcptasks.app.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code gateway} object: the MCP server mcp-tasks runs in front of its configured servers
 * ({@code mcp-tasks gateway}).
 *
 * @param host the address the HTTP endpoint binds to (loopback unless configured)
 * @param port its port
 * @param tokensByPrincipal each principal's bearer token (tokens are secrets and never printed); empty means no
 *     authentication, which is allowed on a loopback address only, for one principal ({@code localPrincipal})
 * @param allowedOrigins browser origins allowed to call (any other {@code Origin} is refused against DNS rebinding)
 * @param allowedHosts {@code Host} header values accepted besides the loopback names
 * @param maxRequestBytes the largest request body accepted
 * @param exposed the servers whose tools the gateway serves, each with the tools it exposes
 * @param localPrincipal the principal of stdio callers, and of HTTP callers when no tokens are configured
 * @param limits what one client may hold of the HTTP endpoint
 * @param plainToolNames {@code gateway.serveUnprefixed} (or {@code gateway.toolNames} {@code "plain"}): the one
 *     exposed server's tools and prompts keep their own names (the default serves {@code <server>__<tool>})
 * @param handoffSeconds {@code gateway.handoffSeconds}: a plain call still running after this long is answered with
 *     a hand-off to its task and the gateway serves tools to follow it; 0: held until it ends
 */
public record GatewayConfig(String host, int port, Map<String, String> tokensByPrincipal,
        List<String> allowedOrigins, List<String> allowedHosts, int maxRequestBytes,
        Map<String, Exposure> exposed, String localPrincipal, Limits limits, boolean plainToolNames,
        int handoffSeconds) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8765;
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
    public static final String DEFAULT_LOCAL_PRINCIPAL = "local";

    public GatewayConfig {
        tokensByPrincipal = Collections.unmodifiableMap(new LinkedHashMap<>(tokensByPrincipal));
        allowedOrigins = List.copyOf(allowedOrigins);
        allowedHosts = List.copyOf(allowedHosts);
        exposed = Collections.unmodifiableMap(new LinkedHashMap<>(exposed));
    }

    /** No {@code gateway} object: every configured server, loopback, no tokens. */
    public static GatewayConfig defaults(Set<String> servers) {
        Map<String, Exposure> all = new LinkedHashMap<>();
        servers.forEach(server -> all.put(server, Exposure.EVERY_TOOL));
        return new GatewayConfig(DEFAULT_HOST, DEFAULT_PORT, Map.of(), List.of(), List.of(),
                DEFAULT_MAX_REQUEST_BYTES, all, DEFAULT_LOCAL_PRINCIPAL, Limits.DEFAULTS, false, 0);
    }

    /**
     * The tools of one exposed server: every tool it lists ({@code tools} not configured), or exactly the listed
     * ones. An empty list exposes none: an allow-list never fails open.
     */
    public record Exposure(boolean everyTool, Set<String> tools) {
        public static final Exposure EVERY_TOOL = new Exposure(true, Set.of());

        public Exposure {
            tools = Set.copyOf(tools);
            if (everyTool && !tools.isEmpty()) {
                throw new IllegalArgumentException("an exposure of every tool lists none");
            }
        }

        /** Exactly {@code tools} (none when empty). */
        public static Exposure only(Set<String> tools) {
            return new Exposure(false, tools);
        }
    }

    /** Whether callers must present a bearer token. */
    public boolean authenticates() {
        return !tokensByPrincipal.isEmpty();
    }

    /** The same configuration listening on another address or port (command-line overrides). */
    public GatewayConfig withListener(String newHost, int newPort) {
        return new GatewayConfig(newHost, newPort, tokensByPrincipal, allowedOrigins, allowedHosts, maxRequestBytes,
                exposed, localPrincipal, limits, plainToolNames, handoffSeconds);
    }

    /**
     * The HTTP endpoint's bounds ({@code gateway.requestTimeoutSeconds}, {@code gateway.maxConnections},
     * {@code gateway.maxSessionsPerPrincipal}).
     *
     * @param requestTimeoutSeconds how long a connection may take to send its next whole request (slowloris)
     * @param maxConnections the most connections open at once
     * @param maxSessionsPerPrincipal the most sessions one principal holds; one more ends its least recently used
     * @param quota every principal's quota ({@code gateway.quotas}); {@link Quota#NONE} by default
     * @param quotas named principals' quotas ({@code gateway.quotas.principals}), replacing {@code quota}
     */
    public record Limits(int requestTimeoutSeconds, int maxConnections, int maxSessionsPerPrincipal, Quota quota,
            Map<String, Quota> quotas) {
        public static final Limits DEFAULTS = new Limits(30, 1024, 100, Quota.NONE, Map.of());

        public Limits {
            quotas = Map.copyOf(quotas);
        }
    }

    /**
     * @param concurrentTasks the most tasks not yet ended a principal has at once; null: unlimited
     * @param callsPerMinute the most tool calls a principal makes in a minute; null: unlimited
     */
    public record Quota(Integer concurrentTasks, Integer callsPerMinute) {
        public static final Quota NONE = new Quota(null, null);
    }

    /** Whether {@code host} names a loopback address (a literal, or {@code localhost}); no lookup is made. */
    public static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!host.matches("[0-9.]+|\\[?[0-9a-fA-F:]+]?")) {
            return false;
        }
        try {
            return InetAddress.getByName(host.replace("[", "").replace("]", "")).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
