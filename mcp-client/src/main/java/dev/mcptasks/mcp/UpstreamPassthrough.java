package dev.mcptasks.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.ports.catalog.UpstreamErrorException;
import dev.mcptasks.ports.catalog.UpstreamRequests;
import dev.mcptasks.ports.catalog.UpstreamUnavailableException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link UpstreamRequests} port over the worker's MCP sessions: the gateway's pass-through requests go out in
 * the same session (same handshake, same request timeout) that lists the server's tools; a JSON-RPC error the server
 * answers is handed on with its code, message and data.
 */
public final class UpstreamPassthrough implements UpstreamRequests {
    private final McpSessions sessions;
    private final List<UpstreamNotificationListener> listeners = new CopyOnWriteArrayList<>();
    /** The sessions whose notifications are relayed to the listeners (each registered once). */
    private final Set<McpSession> heard = ConcurrentHashMap.newKeySet();

    public UpstreamPassthrough(McpSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public CompletableFuture<String> request(String serverName, String method, String paramsJson) {
        JsonNode params;
        McpSession session;
        try {
            params = Json.MAPPER.readTree(paramsJson);
            session = session(serverName);
        } catch (JsonProcessingException e) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("params are not JSON: "
                    + e.getOriginalMessage()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return session.request(method, params).thenApply(JsonNode::toString)
                .exceptionallyCompose(error -> CompletableFuture.failedFuture(translated(serverName, method, error)));
    }

    @Override
    public CompletableFuture<String> capabilities(String serverName) {
        McpSession session;
        try {
            session = session(serverName);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return session.connect().thenApply(handshake -> handshake.capabilitiesKnown()
                        ? handshake.capabilities().raw().toString() : "{}")
                .exceptionallyCompose(error -> CompletableFuture.failedFuture(translated(serverName, "connect",
                        error)));
    }

    @Override
    public void onNotification(UpstreamNotificationListener listener) {
        listeners.add(listener);
    }

    private McpSession session(String serverName) {
        McpSession session;
        try {
            session = sessions.session(serverName).orElse(null);
        } catch (IllegalStateException e) {
            throw new UpstreamUnavailableException("server '" + serverName + "': " + e.getMessage(), e);
        }
        if (session == null) {
            throw new UpstreamUnavailableException("server '" + serverName + "' is not configured");
        }
        if (heard.add(session)) {
            session.addNotificationListener((method, params) -> listeners.forEach(listener -> listener.notified(
                    serverName, method, params == null ? "{}" : params.toString())));
        }
        return session;
    }

    private static RuntimeException translated(String serverName, String method, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof McpErrorResponse response) {
            return new UpstreamErrorException(serverName, response.code(), response.remoteMessage(),
                    response.data() == null ? null : response.data().toString());
        }
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getMessage().lines().findFirst().orElse("");
        return new UpstreamUnavailableException("server '" + serverName + "' did not answer " + method + ": "
                + detail, cause);
    }
}
