package dev.mcptasks.adapters.oauth;

import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.StoredCredential;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A credential store in memory, with a hook that runs before each compare-and-set (to stage races). */
final class MemoryCredentialStore implements CredentialStore {
    private final Map<String, StoredCredential> values = new TreeMap<>();
    private volatile Runnable beforeCompareAndSet = () -> { };
    final AtomicInteger writes = new AtomicInteger();

    void beforeCompareAndSet(Runnable hook) {
        beforeCompareAndSet = hook;
    }

    @Override
    public synchronized Optional<StoredCredential> load(String key) {
        return Optional.ofNullable(values.get(key));
    }

    @Override
    public long compareAndSet(String key, long expectedVersion, byte[] sealed) {
        Runnable hook = beforeCompareAndSet;
        beforeCompareAndSet = () -> { };
        hook.run();
        synchronized (this) {
            StoredCredential current = values.get(key);
            long version = current == null ? 0 : current.version();
            if (version != expectedVersion) {
                return 0;
            }
            values.put(key, new StoredCredential(key, version + 1, sealed, Instant.EPOCH));
            writes.incrementAndGet();
            return version + 1;
        }
    }

    @Override
    public synchronized boolean delete(String key) {
        return values.remove(key) != null;
    }

    @Override
    public synchronized List<String> keys() {
        return new ArrayList<>(values.keySet());
    }
}
