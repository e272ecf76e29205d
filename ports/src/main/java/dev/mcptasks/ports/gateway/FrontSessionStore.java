package dev.mcptasks.ports.gateway;

import java.time.Instant;
import java.util.Optional;

/**
 * The gateway's front sessions in the shared store, so a client keeps its {@code Mcp-Session-Id} across a gateway
 * restart and across gateway processes on one database. Each call is one short statement of its own.
 */
public interface FrontSessionStore {
    /** A store that keeps nothing: sessions live in the gateway's memory only. */
    FrontSessionStore NONE = new FrontSessionStore() {
        @Override
        public void save(StoredFrontSession session) {}

        @Override
        public Optional<StoredFrontSession> find(String id) {
            return Optional.empty();
        }

        @Override
        public boolean touch(String id, Instant lastUsedAt) {
            return false;
        }

        @Override
        public boolean delete(String id) {
            return false;
        }

        @Override
        public int purgeUnusedSince(Instant cutoff, int limit) {
            return 0;
        }
    };

    /** Stores a new session (ids are random: a second save of one id replaces the first). */
    void save(StoredFrontSession session);

    /** The session with this id, whatever its principal (the caller compares), or empty. */
    Optional<StoredFrontSession> find(String id);

    /**
     * Records that the session was used at {@code lastUsedAt}; a last use already later is kept.
     *
     * @return false when the store holds no such session (ended by DELETE elsewhere, or purged)
     */
    boolean touch(String id, Instant lastUsedAt);

    /** Removes the session; false when it was not there. */
    boolean delete(String id);

    /**
     * Deletes up to {@code limit} sessions last used before {@code cutoff}.
     *
     * @return how many were deleted; fewer than {@code limit} means none is left
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    int purgeUnusedSince(Instant cutoff, int limit);

    /** Checks a batch size as every implementation must. */
    static void checkLimit(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
    }
}
