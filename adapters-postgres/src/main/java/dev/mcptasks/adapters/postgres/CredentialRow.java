package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.auth.StoredCredential;
import java.time.Instant;

/** A {@code credentials} row as MyBatis reads it. */
record CredentialRow(String key, long version, byte[] sealed, Instant updatedAt) {
    StoredCredential toCredential() {
        return new StoredCredential(key, version, sealed, updatedAt);
    }
}
