package dev.mcptasks.ports.gateway;

import java.time.Instant;
import java.util.Objects;

/**
 * A gateway's front session (2025-11-25 {@code Mcp-Session-Id}) as the store keeps it, so that another gateway process,
 * or the same one after a restart, serves it alike. Only what the handshake settled is kept: streams and requests in
 * flight live in one process's memory and are not durable.
 *
 * @param id the session id the client carries in {@code Mcp-Session-Id}
 * @param principal the principal that initialized it; only it may use the id
 * @param protocolVersion the protocol version the handshake settled on
 * @param capabilitiesJson the client's {@code capabilities} object of its {@code initialize}, as JSON text
 * @param createdAt when the session was initialized
 * @param lastUsedAt when a gateway last saw the client use it (written at most about once a minute per session)
 */
public record StoredFrontSession(String id, String principal, String protocolVersion, String capabilitiesJson,
        Instant createdAt, Instant lastUsedAt) {
    public StoredFrontSession {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(capabilitiesJson, "capabilitiesJson");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(lastUsedAt, "lastUsedAt");
        if (id.isBlank() || principal.isBlank()) {
            throw new IllegalArgumentException("a session's id and principal must not be blank");
        }
    }
}
