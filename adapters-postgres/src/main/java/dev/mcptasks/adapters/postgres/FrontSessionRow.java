package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.gateway.StoredFrontSession;
import java.time.Instant;

/** A {@code front_sessions} row. */
record FrontSessionRow(String id, String principal, String protocolVersion, String capabilities, Instant createdAt,
        Instant lastUsedAt) {
    StoredFrontSession toSession() {
        return new StoredFrontSession(id, principal, protocolVersion, capabilities, createdAt, lastUsedAt);
    }
}
