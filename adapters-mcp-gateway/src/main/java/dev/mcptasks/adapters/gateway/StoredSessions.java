package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.gateway.StoredFrontSession;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP sessions' durable side: what {@code initialize} settled (principal, protocol version, the client's
 * capabilities) is stored, so a gateway that does not know an id (restarted, or another process on the same
 * database) finds it there and serves the session under the same id. Streams and requests in flight are not stored.
 * The last use is written at most once per {@link #touchEvery} per session, never per request; the sweep purges the
 * sessions no gateway used for the idle timeout (and the slack of those writes). Every method here but
 * {@link #touchDue} touches the store: call it on the dispatch executor, never on an event loop.
 */
final class StoredSessions {
    static final Duration TOUCH_AT_MOST_EVERY = Duration.ofMinutes(1);
    static final int PURGE_BATCH = 500;
    private static final Logger LOG = LoggerFactory.getLogger(StoredSessions.class);

    private final FrontSessionStore store;
    private final Clock clock;
    private final long touchEveryNanos;

    /**
     * @param idleTimeout the session idle timeout: the last use is written at least four times within it (and at most
     *     once a minute), so a session in use on any gateway is never purged
     */
    StoredSessions(FrontSessionStore store, Clock clock, Duration idleTimeout) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        Duration every = idleTimeout.isZero() ? TOUCH_AT_MOST_EVERY : idleTimeout.dividedBy(4);
        this.touchEveryNanos = Math.max(1, Math.min(every.toNanos(), TOUCH_AT_MOST_EVERY.toNanos()));
    }

    /** False when sessions live in memory only ({@link FrontSessionStore#NONE}). */
    boolean durable() {
        return store != FrontSessionStore.NONE;
    }

    /**
     * Stores the session {@code initialize} created, before its answer names it: from then on any gateway on the
     * store serves it. Throws when the store fails (the initialize then fails: no session is handed out that a
     * restart would lose).
     */
    void save(HttpSession session, ObjectNode initialize, ObjectNode answer) {
        if (!durable()) {
            return;
        }
        JsonNode params = initialize.path("params");
        String version = answer.path("result").path("protocolVersion").asText(
                params.path("protocolVersion").asText(Front2025.VERSION));
        JsonNode capabilities = params.path("capabilities");
        Instant now = clock.now();
        store.save(new StoredFrontSession(session.id(), session.principal(), version,
                capabilities.isObject() ? capabilities.toString() : "{}", now, now));
        session.storedUse(clock.nanoTime());
    }

    /** The stored session {@code id} if it is {@code principal}'s; another principal's is as unknown. */
    Optional<StoredFrontSession> find(String id, String principal) {
        if (!durable()) {
            return Optional.empty();
        }
        return store.find(id).filter(stored -> stored.principal().equals(principal));
    }

    /** How often at most a session's last use is written: a minute, or a quarter of a shorter idle timeout. */
    Duration touchEvery() {
        return Duration.ofNanos(touchEveryNanos);
    }

    /** True when the session's last use is due to be written (and marks it written): at most once per interval. */
    boolean touchDue(HttpSession session) {
        return durable() && session.storeUseDue(clock.nanoTime(), touchEveryNanos);
    }

    /**
     * Writes the session's last use; false when the store no longer holds it (a DELETE on another gateway, or
     * purged): the caller ends it here too. A store failure is logged and taken as still there.
     */
    boolean touch(HttpSession session) {
        return touch(session, clock.now());
    }

    /** Writes the session's last use as {@code at}, as {@link #touch(HttpSession)}. */
    boolean touch(HttpSession session, Instant at) {
        try {
            return store.touch(session.id(), at);
        } catch (RuntimeException e) {
            LOG.warn("gateway: cannot record the last use of session {}: {}", session.id(), FrontCatalog.oneLine(e));
            return true;
        }
    }

    /**
     * A session served again from the store: its last use is written now, whatever was written before (the gateway
     * that last served it may have been down for most of the idle timeout).
     */
    void restored(HttpSession session) {
        session.storedUse(clock.nanoTime());
        touch(session);
    }

    /** The session ended for good (DELETE, or made room under the principal's cap): no gateway serves it again. */
    void forget(HttpSession session) {
        if (!durable()) {
            return;
        }
        try {
            store.delete(session.id());
        } catch (RuntimeException e) {
            LOG.warn("gateway: cannot delete session {} from the store (it expires with the idle timeout): {}",
                    session.id(), FrontCatalog.oneLine(e));
        }
    }

    /**
     * Deletes, a batch at a time, the sessions no gateway used since {@code cutoff}; how many. The caller's cutoff
     * leaves the idle timeout plus the slack of the last-use writes and of its sweep, so that no session a gateway
     * still holds in memory is purged.
     */
    int purge(Instant cutoff) {
        if (!durable()) {
            return 0;
        }
        int total = 0;
        try {
            int deleted;
            do {
                deleted = store.purgeUnusedSince(cutoff, PURGE_BATCH);
                total += deleted;
            } while (deleted == PURGE_BATCH);
        } catch (RuntimeException e) {
            LOG.warn("gateway: cannot purge expired sessions (the next sweep tries again): {}",
                    FrontCatalog.oneLine(e));
        }
        return total;
    }
}
