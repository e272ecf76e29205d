package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.StoredCredential;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link CredentialStore} in the task database's {@code credentials} table, sharing the repository's writer and
 * reader pools (one writer per file: a second writer pool would only wait on the first). A compare-and-set is one
 * conditional statement on the writer, so it needs no read and holds the write lock for that statement alone; like
 * every write of this database, it joins the group transaction open on the calling thread, if any. Values are never
 * logged, nor put in error messages; keys are.
 */
final class SqliteCredentialStore implements CredentialStore {
    private final SqliteDatabase database;
    private final Clock clock;

    SqliteCredentialStore(SqliteDatabase database, Clock clock) {
        this.database = Objects.requireNonNull(database, "database");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<StoredCredential> load(String key) {
        Objects.requireNonNull(key, "key");
        CredentialRow row = database.read("load credential '" + key + "'", CredentialMapper.class,
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
        return database.write("write credential '" + key + "' from version " + expectedVersion, session -> {
            CredentialMapper mapper = session.mapper(CredentialMapper.class);
            long now = clock.now().toEpochMilli();
            if (expectedVersion == 0) {
                Long version = mapper.insertFirst(key, value, now);
                return version == null ? 0L : version;
            }
            return mapper.replace(key, expectedVersion, value, now) == 1 ? expectedVersion + 1 : 0L;
        });
    }

    @Override
    public boolean delete(String key) {
        Objects.requireNonNull(key, "key");
        return database.write("delete credential '" + key + "'",
                session -> session.mapper(CredentialMapper.class).deleteCredential(key,
                        clock.now().toEpochMilli())) == 1;
    }

    @Override
    public List<String> keys() {
        List<String> keys = new ArrayList<>(database.read("list credential keys", CredentialMapper.class,
                CredentialMapper::selectKeys));
        // String order, which SQLite's BINARY collation (UTF-8 bytes) is not beyond the BMP
        keys.sort(null);
        return List.copyOf(keys);
    }
}
