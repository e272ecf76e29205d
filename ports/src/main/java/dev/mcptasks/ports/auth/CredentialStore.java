package dev.mcptasks.ports.auth;

import java.util.List;
import java.util.Optional;

/**
 * Durable credentials (OAuth tokens, registered clients), shared by every worker of a deployment through the task
 * store. Values are opaque sealed bytes: the store never sees a token in clear (the OAuth adapter encrypts with a key
 * from the environment), and implementations never log them.
 *
 * <p>Writes are compare-and-set on a version, so two workers refreshing the same token at once cannot lose one
 * another's result silently: the loser re-reads and uses the winner's token. A key's versions never repeat, deletes
 * included: a worker that read a credential before a logout cannot overwrite the next login's, however many writes
 * that login has had (no ABA).
 */
public interface CredentialStore {

    /** The credential under {@code key}, if any. */
    Optional<StoredCredential> load(String key);

    /**
     * Stores {@code sealed} (not empty) under {@code key} if its current version is {@code expectedVersion} (0:
     * absent) and returns the new version, or returns 0 and changes nothing when the version differs. The new version
     * is expectedVersion + 1, except for a key written again after a delete: then it is greater than every version
     * the key had before.
     */
    long compareAndSet(String key, long expectedVersion, byte[] sealed);

    /**
     * Removes the credential; whether there was one. The key's version still counts on (the store may keep a
     * tombstone), so a compare-and-set from any version read before the delete fails from now on.
     */
    boolean delete(String key);

    /** Every key, sorted. */
    List<String> keys();
}
