package dev.mcptasks.ports.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored credential.
 *
 * @param key what it is for (the OAuth adapter uses e.g. {@code oauth:SERVER})
 * @param version 1 for the first write, +1 per write
 * @param sealed the encrypted value
 * @param updatedAt when it was last written (store clock)
 */
public record StoredCredential(String key, long version, byte[] sealed, Instant updatedAt) {
    public StoredCredential {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sealed, "sealed");
        sealed = sealed.clone();
        if (version < 1) {
            throw new IllegalArgumentException("version must be >= 1, was " + version);
        }
    }

    @Override
    public byte[] sealed() {
        return sealed.clone();
    }

    @Override
    public String toString() {
        return "StoredCredential[key=" + key + ", version=" + version + ", " + sealed.length + " sealed bytes, updatedAt="
                + updatedAt + "]";
    }
}
