package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.gateway.StoredFrontSession;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link FrontSessionStore} in the task database's {@code front_sessions} table, on the repository's pool: each
 * call is one statement in autocommit. The purge locks only its own batch and skips rows another transaction holds.
 */
final class PostgresFrontSessionStore implements FrontSessionStore {
    private final PostgresStore store;

    PostgresFrontSessionStore(PostgresStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public void save(StoredFrontSession session) {
        Objects.requireNonNull(session, "session");
        store.autoCommit("save front session of '" + session.principal() + "'", FrontSessionMapper.class,
                mapper -> mapper.insertSession(session.id(), session.principal(), session.protocolVersion(),
                        session.capabilitiesJson(), Times.millis(session.createdAt()),
                        Times.millis(session.lastUsedAt())));
    }

    @Override
    public Optional<StoredFrontSession> find(String id) {
        Objects.requireNonNull(id, "id");
        FrontSessionRow row = store.autoCommit("find a front session", FrontSessionMapper.class,
                mapper -> mapper.selectSession(id));
        return Optional.ofNullable(row).map(FrontSessionRow::toSession);
    }

    @Override
    public boolean touch(String id, Instant lastUsedAt) {
        Objects.requireNonNull(id, "id");
        return store.autoCommit("touch a front session", FrontSessionMapper.class,
                mapper -> mapper.touchSession(id, Times.millis(lastUsedAt))) > 0;
    }

    @Override
    public boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        return store.autoCommit("delete a front session", FrontSessionMapper.class,
                mapper -> mapper.deleteSession(id)) > 0;
    }

    @Override
    public int purgeUnusedSince(Instant cutoff, int limit) {
        FrontSessionStore.checkLimit(limit);
        return store.autoCommit("purge front sessions unused since " + cutoff, FrontSessionMapper.class,
                mapper -> mapper.deleteUnusedSince(Times.millis(cutoff), limit));
    }
}
