package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The live 2025 sessions of one HTTP gateway, by {@code Mcp-Session-Id}. Ids carry 128 random bits. A session is
 * visible only to the principal that initialized it: another principal presenting its id gets the same 404 as for an
 * unknown id, so an id leaks nothing. A principal holds at most {@code maxPerPrincipal} sessions: registering one
 * more ends its least recently used, so a client that opens sessions without end (3,000 in 3 s) costs only its own
 * oldest and the gateway's memory stays bounded.
 */
final class HttpSessions {
    /** What a request's session header resolved to. */
    sealed interface Lookup {
        record Found(HttpSession session) implements Lookup {}

        /** No {@code Mcp-Session-Id} header. */
        record Missing() implements Lookup {}

        /** An id that is unknown, ended, or another principal's. */
        record Unknown(String id) implements Lookup {}
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
    /** Each principal's sessions; guarded by itself, changed together with {@link #sessions}. */
    private final Map<String, Set<HttpSession>> byPrincipal = new HashMap<>();
    private final int maxPerPrincipal;
    private final RetainedAnswers budget;
    private final long retryMillis;
    private final Function<ObjectNode, String> json;
    private final LongSupplier nanoTime;

    HttpSessions(long retryMillis, Function<ObjectNode, String> json, LongSupplier nanoTime, int maxPerPrincipal,
            RetainedAnswers budget) {
        this.budget = budget;
        if (maxPerPrincipal < 1) {
            throw new IllegalArgumentException("maxPerPrincipal must be positive: " + maxPerPrincipal);
        }
        this.maxPerPrincipal = maxPerPrincipal;
        this.retryMillis = retryMillis;
        this.json = json;
        this.nanoTime = nanoTime;
    }

    /** A new session for an {@code initialize}, not yet findable: it is registered once initialize succeeds. */
    HttpSession create(String principal) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return new HttpSession(HexFormat.of().formatHex(bytes), principal, retryMillis, json, nanoTime,
                budget);
    }

    /** What {@link #restore} did: the live session under the id, and the session it made room for, if any. */
    record Restored(HttpSession session, Optional<HttpSession> evicted) {}

    /**
     * Serves a stored session again under its own {@code id} (this gateway did not know it: it restarted, or another
     * gateway initialized it), with no stream and no request in flight. It counts towards the principal's cap as a
     * new one would. When a concurrent request restored it first, that session is the one returned.
     */
    Restored restore(String id, String principal) {
        synchronized (byPrincipal) {
            HttpSession live = sessions.get(id);
            if (live != null && live.principal().equals(principal)) {
                live.touch();
                return new Restored(live, Optional.empty());
            }
            HttpSession session = new HttpSession(id, principal, retryMillis, json, nanoTime, budget);
            return new Restored(session, register(session));
        }
    }

    /** Every live session now. */
    List<HttpSession> all() {
        return List.copyOf(sessions.values());
    }

    /** How many sessions are open now. */
    int size() {
        return sessions.size();
    }

    /**
     * Makes the session findable; returns the principal's least recently used session if this one took its place
     * (already ended and closed here: the caller tells the dispatcher).
     */
    Optional<HttpSession> register(HttpSession session) {
        HttpSession evicted = null;
        synchronized (byPrincipal) {
            Set<HttpSession> own = byPrincipal.computeIfAbsent(session.principal(), key -> new HashSet<>());
            if (own.size() >= maxPerPrincipal) {
                evicted = own.stream().min(Comparator.comparingLong(HttpSession::lastActive)).orElseThrow();
                own.remove(evicted);
                sessions.remove(evicted.id(), evicted);
            }
            own.add(session);
            sessions.put(session.id(), session);
        }
        if (evicted != null) {
            evicted.close();
        }
        return Optional.ofNullable(evicted);
    }

    /** How many live sessions the principal holds. */
    int count(String principal) {
        synchronized (byPrincipal) {
            Set<HttpSession> own = byPrincipal.get(principal);
            return own == null ? 0 : own.size();
        }
    }

    Lookup find(String id, String principal) {
        if (id == null) {
            return new Lookup.Missing();
        }
        HttpSession session = sessions.get(id);
        if (session == null || !session.principal().equals(principal)) {
            return new Lookup.Unknown(id);
        }
        session.touch();
        return new Lookup.Found(session);
    }

    /** Ends the sessions idle for {@code timeout} and returns them (the caller tells the dispatcher). */
    List<HttpSession> endIdle(Duration timeout) {
        long nanos = timeout.toNanos();
        List<HttpSession> ended = new ArrayList<>();
        for (HttpSession session : sessions.values()) {
            if (session.idleFor(nanos) && end(session)) {
                ended.add(session);
            }
        }
        return ended;
    }

    /** Removes and closes the session; false when it was already gone (a concurrent DELETE). */
    boolean end(HttpSession session) {
        boolean removed;
        synchronized (byPrincipal) {
            removed = sessions.remove(session.id(), session);
            if (removed) {
                Set<HttpSession> own = byPrincipal.get(session.principal());
                own.remove(session);
                if (own.isEmpty()) {
                    byPrincipal.remove(session.principal());
                }
            }
        }
        if (removed) {
            session.close();
        }
        return removed;
    }

    /** Removes and closes every session (the gateway stops). */
    List<HttpSession> endAll() {
        List<HttpSession> all = List.copyOf(sessions.values());
        all.forEach(this::end);
        return all;
    }
}
