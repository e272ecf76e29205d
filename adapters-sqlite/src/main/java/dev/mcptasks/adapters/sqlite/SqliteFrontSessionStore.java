package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.gateway.StoredFrontSession;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link FrontSessionStore} in the task database's {@code front_sessions} table, on the repository's pools: a
 * find reads on a reader, every change is one short statement on the writer.
 */
final class SqliteFrontSessionStore implements FrontSessionStore {
    private final SqliteDatabase database;

    SqliteFrontSessionStore(SqliteDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    @Override
    public void save(StoredFrontSession session) {
        Objects.requireNonNull(session, "session");
        database.write("save front session of '" + session.principal() + "'",
                writer -> writer.mapper(FrontSessionMapper.class).insertSession(session.id(), session.principal(),
                        session.protocolVersion(), session.capabilitiesJson(), session.createdAt().toEpochMilli(),
                        session.lastUsedAt().toEpochMilli()));
    }

    @Override
    public Optional<StoredFrontSession> find(String id) {
        Objects.requireNonNull(id, "id");
        FrontSessionRow row = database.read("find a front session", FrontSessionMapper.class,
                mapper -> mapper.selectSession(id));
        return Optional.ofNullable(row).map(FrontSessionRow::toSession);
    }

    @Override
    public boolean touch(String id, Instant lastUsedAt) {
        Objects.requireNonNull(id, "id");
        return database.write("touch a front session", writer -> writer.mapper(FrontSessionMapper.class)
                .touchSession(id, lastUsedAt.toEpochMilli())) > 0;
    }

    @Override
    public boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        return database.write("delete a front session",
                writer -> writer.mapper(FrontSessionMapper.class).deleteSession(id)) > 0;
    }

    @Override
    public int purgeUnusedSince(Instant cutoff, int limit) {
        FrontSessionStore.checkLimit(limit);
        return database.write("purge front sessions unused since " + cutoff,
                writer -> writer.mapper(FrontSessionMapper.class).deleteUnusedSince(cutoff.toEpochMilli(), limit));
    }
}
