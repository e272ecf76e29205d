package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.auth.StoredCredential;
import java.time.Instant;

/** A {@code credentials} row as stored: the instant in epoch milliseconds. */
record CredentialRow(String key, long version, byte[] sealed, long updatedAt) {
    StoredCredential toCredential() {
        return new StoredCredential(key, version, sealed, Instant.ofEpochMilli(updatedAt));
    }
}
