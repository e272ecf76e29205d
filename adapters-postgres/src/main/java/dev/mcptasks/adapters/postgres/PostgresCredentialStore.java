package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.StoredCredential;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link CredentialStore} in the task database's {@code credentials} table, on the repository's connection pool.
 * A compare-and-set is one conditional statement in auto-commit: concurrent writers from the same version serialize
 * on the row (or on the key's unique index, for the first write) and all but one match nothing. Like every store call,
 * it joins the group transaction open on the calling thread, if any. Values are never logged, nor put in error
 * messages; keys are.
 */
final class PostgresCredentialStore implements CredentialStore {
    private final PostgresStore store;
    private final Clock clock;

    PostgresCredentialStore(PostgresStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<StoredCredential> load(String key) {
        Objects.requireNonNull(key, "key");
        CredentialRow row = store.autoCommit("load credential '" + key + "'", CredentialMapper.class,
                mapper -> mapper.selectCredential(key));
        return Optional.ofNullable(row).map(CredentialRow::toCredential);
    }

    @Override
    public long compareAndSet(String key, long expectedVersion, byte[] sealed) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sealed, "sealed");
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0 (0: absent), was " + expectedVersion);
        }
        if (sealed.length == 0) {
            throw new IllegalArgumentException("sealed must not be empty");
        }
        byte[] value = sealed.clone();
        return store.autoCommit("write credential '" + key + "' from version " + expectedVersion,
                CredentialMapper.class, mapper -> {
                    if (expectedVersion == 0) {
                        Long version = mapper.insertFirst(key, value, Times.now(clock));
                        return version == null ? 0L : version;
                    }
                    return mapper.replace(key, expectedVersion, value, Times.now(clock)) == 1 ? expectedVersion + 1
                            : 0L;
                });
    }

    @Override
    public boolean delete(String key) {
        Objects.requireNonNull(key, "key");
        return store.autoCommit("delete credential '" + key + "'", CredentialMapper.class,
                mapper -> mapper.deleteCredential(key, Times.now(clock))) == 1;
    }

    @Override
    public List<String> keys() {
        List<String> keys = new ArrayList<>(store.autoCommit("list credential keys", CredentialMapper.class,
                CredentialMapper::selectKeys));
        // String order, which no locale collation is (and not even "C", UTF-8 byte order, beyond the BMP)
        keys.sort(null);
        return List.copyOf(keys);
    }
}
