package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.StoredCredential;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The credential store in memory: one map behind one lock, so each compare-and-set reads and writes the version
 * atomically, as the SQL stores' single conditional statement does. Instants are stamped from the given clock at the
 * millisecond precision the SQL stores keep; values are copied in and out ({@link StoredCredential} copies them). A
 * deleted key keeps its last version, so versions never repeat.
 */
public final class InMemoryCredentialStore implements CredentialStore {
    private final Clock clock;
    private final TreeMap<String, StoredCredential> credentials = new TreeMap<>(); // guarded by this
    /** The last version of each deleted key, which its next write counts on from. */
    private final Map<String, Long> deleted = new HashMap<>(); // guarded by this

    public InMemoryCredentialStore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized Optional<StoredCredential> load(String key) {
        Objects.requireNonNull(key, "key");
        return Optional.ofNullable(credentials.get(key));
    }

    @Override
    public synchronized long compareAndSet(String key, long expectedVersion, byte[] sealed) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sealed, "sealed");
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0 (0: absent), was " + expectedVersion);
        }
        if (sealed.length == 0) {
            throw new IllegalArgumentException("sealed must not be empty");
        }
        StoredCredential current = credentials.get(key);
        long currentVersion = current == null ? 0 : current.version();
        if (currentVersion != expectedVersion) {
            return 0;
        }
        long next = (current == null ? deleted.getOrDefault(key, 0L) : expectedVersion) + 1;
        deleted.remove(key);
        credentials.put(key, new StoredCredential(key, next, sealed, clock.now().truncatedTo(ChronoUnit.MILLIS)));
        return next;
    }

    @Override
    public synchronized boolean delete(String key) {
        Objects.requireNonNull(key, "key");
        StoredCredential removed = credentials.remove(key);
        if (removed == null) {
            return false;
        }
        deleted.put(key, removed.version() + 1);
        return true;
    }

    @Override
    public synchronized List<String> keys() {
        return List.copyOf(credentials.keySet());
    }
}
