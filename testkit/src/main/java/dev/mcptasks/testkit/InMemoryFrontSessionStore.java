package dev.mcptasks.testkit;

import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.gateway.StoredFrontSession;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread-safe, in-memory {@link FrontSessionStore}; passes the front session contract. One instance shared by two
 * gateways stands for one database under two gateway processes, or under one process before and after a restart.
 */
public final class InMemoryFrontSessionStore implements FrontSessionStore {
    private final Map<String, StoredFrontSession> sessions = new LinkedHashMap<>(); // guarded by this

    @Override
    public synchronized void save(StoredFrontSession session) {
        Objects.requireNonNull(session, "session");
        sessions.put(session.id(), new StoredFrontSession(session.id(), session.principal(),
                session.protocolVersion(), session.capabilitiesJson(), InMemoryStore.millis(session.createdAt()),
                InMemoryStore.millis(session.lastUsedAt())));
    }

    @Override
    public synchronized Optional<StoredFrontSession> find(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    @Override
    public synchronized boolean touch(String id, Instant lastUsedAt) {
        StoredFrontSession session = sessions.get(id);
        if (session == null) {
            return false;
        }
        Instant at = InMemoryStore.millis(lastUsedAt);
        if (at.isAfter(session.lastUsedAt())) {
            sessions.put(id, new StoredFrontSession(id, session.principal(), session.protocolVersion(),
                    session.capabilitiesJson(), session.createdAt(), at));
        }
        return true;
    }

    @Override
    public synchronized boolean delete(String id) {
        return sessions.remove(id) != null;
    }

    @Override
    public synchronized int purgeUnusedSince(Instant cutoff, int limit) {
        FrontSessionStore.checkLimit(limit);
        int deleted = 0;
        for (var it = sessions.values().iterator(); it.hasNext() && deleted < limit;) {
            if (it.next().lastUsedAt().isBefore(cutoff)) {
                it.remove();
                deleted++;
            }
        }
        return deleted;
    }

    /** How many sessions are stored (tests). */
    public synchronized int size() {
        return sessions.size();
    }
}
