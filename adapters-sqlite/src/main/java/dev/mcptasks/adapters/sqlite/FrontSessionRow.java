package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.gateway.StoredFrontSession;
import java.time.Instant;

/** A {@code front_sessions} row as stored: the instants in epoch milliseconds. */
record FrontSessionRow(String id, String principal, String protocolVersion, String capabilities, long createdAt,
        long lastUsedAt) {
    StoredFrontSession toSession() {
        return new StoredFrontSession(id, principal, protocolVersion, capabilities, Instant.ofEpochMilli(createdAt),
                Instant.ofEpochMilli(lastUsedAt));
    }
}
