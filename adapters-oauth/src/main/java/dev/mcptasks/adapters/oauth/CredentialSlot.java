package dev.mcptasks.adapters.oauth;

import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.StoredCredential;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.net.URI;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's credential in memory ({@link #held}) and sealed in the store under {@code oauth:SERVER}, where every
 * worker of a deployment finds it.
 *
 * <p>Invariants: writes are compare-and-set on the version this process last saw; a lost race means another worker
 * got a token first, and its token is used instead of ours (the store holds one truth). What is held in memory was
 * opened by {@link BoundCredentials}, so it is this server's, for this server's url once that is known.
 */
final class CredentialSlot {
    private static final Logger LOG = LoggerFactory.getLogger(CredentialSlot.class);

    /** The credential and the store version it was read or written at (0: not in the store). */
    record Held(Credential credential, long version) {
    }

    private final CredentialStore store;
    private final String key;
    private final String server;
    private final BoundCredentials sealed;
    private final Object lock = new Object();
    /** Learns every token this slot holds, so no upstream text can carry it into a row, a log line or an answer. */
    private final SecretRedactor secrets;
    private volatile Held held;

    CredentialSlot(CredentialStore store, TokenSeal seal, String key, String server, SecretRedactor secrets) {
        this.store = store;
        this.secrets = secrets;
        this.key = key;
        this.server = server;
        this.sealed = new BoundCredentials(seal, key, server);
    }

    private Credential remembered(Credential credential) {
        secrets.remember(credential.accessToken());
        secrets.remember(credential.refreshToken());
        return credential;
    }

    /** What memory holds, without reading the store (the request path). */
    Held held() {
        return held;
    }

    /** Makes the server's url known; a credential read before (by {@code auth status}) is opened again on use. */
    void bind(URI endpoint) {
        if (sealed.bind(endpoint)) {
            synchronized (lock) {
                held = null;
            }
        }
    }

    /** The stored credential when it is newer than the one in memory; the one in memory otherwise. */
    Held reload() {
        Optional<StoredCredential> stored = store.load(key);
        synchronized (lock) {
            Held current = held;
            if (stored.isEmpty()) {
                if (current != null && current.version() > 0) {
                    held = null; // logged out elsewhere
                    return null;
                }
                return current;
            }
            StoredCredential value = stored.get();
            if (current != null && current.version() == value.version()) {
                return current;
            }
            Held read = new Held(remembered(sealed.open(value.sealed())), value.version());
            held = read;
            return read;
        }
    }

    /**
     * What a login starts from: the stored credential, or, when it cannot be used here (another server's, another
     * key's, corrupt), nothing but its version, so that the login's write replaces it.
     */
    Held readableOrReplaceable() {
        try {
            return reload();
        } catch (TokenSeal.SealException | OAuthFailure e) {
            LOG.info("server '{}': replacing the stored credential at login: {}", server, e.getMessage());
            return store.load(key).map(value -> new Held(Credential.NONE, value.version())).orElse(null);
        }
    }

    /**
     * Writes {@code credential} over the version {@code base} was read at. On a lost race another worker wrote
     * first: its token wins when it has one (ours is simply not used); when it dropped its token, ours goes on top.
     */
    Held save(Held base, Credential credential) {
        long expected = base == null ? 0 : base.version();
        byte[] bytes = sealed.seal(remembered(credential));
        long version = store.compareAndSet(key, expected, bytes);
        if (version == 0) {
            Held winner = reload();
            if (winner != null && winner.credential().hasToken() && credential.hasToken()) {
                LOG.debug("server '{}': another worker stored a token first; using it", server);
                return winner;
            }
            version = store.compareAndSet(key, winner == null ? 0 : winner.version(), bytes);
            if (version == 0) {
                throw new OAuthFailure("the stored credential changed twice while writing it; try again");
            }
        }
        Held written = new Held(credential, version);
        synchronized (lock) {
            held = written;
        }
        return written;
    }

    /** Forgets the credential, here and in the store; whether there was a token. */
    boolean forget() {
        boolean had = store.delete(key);
        synchronized (lock) {
            had |= held != null && held.credential().hasToken();
            held = null;
        }
        return had;
    }
}
