package dev.mcptasks.ports.auth;

import java.util.List;
import java.util.Optional;

/**
 * Durable credentials (OAuth tokens, registered clients), shared by every worker of a deployment through the task
 * store. Values are opaque sealed bytes: the store never sees a token in clear (the OAuth adapter encrypts with a key
 * from the environment), and implementations never log them.
 *
 * <p>Writes are compare-and-set on a version, so two workers refreshing the same token at once cannot lose one
 * another's result silently: the loser re-reads and uses the winner's token.
 */
public interface CredentialStore {

    /** The credential under {@code key}, if any. */
    Optional<StoredCredential> load(String key);

    /**
     * Stores {@code sealed} under {@code key} if its current version is {@code expectedVersion} (0: absent) and
     * returns the new version (expectedVersion + 1), or returns 0 and changes nothing when the version differs.
     */
    long compareAndSet(String key, long expectedVersion, byte[] sealed);

    /** Removes the credential; whether there was one. */
    boolean delete(String key);

    /** Every key, sorted. */
    List<String> keys();
}
