package dev.mcptasks.adapters.http;

import io.netty.handler.codec.http.HttpHeaders;
import java.util.Map;
import java.util.Set;

/**
 * The headers every request carries: the configured ones (secrets: never logged), the {@code Mcp-Session-Id} the
 * server handed out, and {@code MCP-Protocol-Version} once negotiated. Thread-safe.
 */
final class SessionHeaders {
    static final String SESSION_ID = "Mcp-Session-Id";
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

    private final Map<String, String> configured;
    private volatile String sessionId;
    private volatile String protocolVersion;

    SessionHeaders(Map<String, String> configured) {
        this.configured = Map.copyOf(configured);
    }

    /** Headers that speak in an existing session from the first request on (no initialize is sent in it). */
    SessionHeaders(Map<String, String> configured, String sessionId, String protocolVersion) {
        this(configured);
        this.sessionId = sessionId;
        this.protocolVersion = protocolVersion;
    }

    /** Remembers the session id if the response carries one. */
    void capture(HttpHeaders response) {
        String id = response.get(SESSION_ID);
        if (id != null && !id.isBlank()) {
            sessionId = id.strip();
        }
    }

    void protocolVersion(String version) {
        protocolVersion = version;
    }

    /** Adds the configured headers only. */
    void applyConfiguredTo(HttpHeaders request) {
        configured.forEach(request::set);
    }

    /** Adds configured headers, then the session headers (which a configured header cannot override). */
    void applyTo(HttpHeaders request) {
        configured.forEach(request::set);
        String id = sessionId;
        if (id != null) {
            request.set(SESSION_ID, id);
        }
        String version = protocolVersion;
        if (version != null) {
            request.set(PROTOCOL_VERSION, version);
        }
    }

    String sessionId() {
        return sessionId;
    }

    /** Names only: header values are secrets. */
    Set<String> configuredNames() {
        return configured.keySet();
    }
}
