package dev.mcptasks.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The live 2025 sessions of one HTTP gateway, by {@code Mcp-Session-Id}. Ids carry 128 random bits. A session is
 * visible only to the principal that initialized it: another principal presenting its id gets the same 404 as for an
 * unknown id, so an id leaks nothing.
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
    private final long retryMillis;
    private final Function<ObjectNode, String> json;
    private final LongSupplier nanoTime;

    HttpSessions(long retryMillis, Function<ObjectNode, String> json, LongSupplier nanoTime) {
        this.retryMillis = retryMillis;
        this.json = json;
        this.nanoTime = nanoTime;
    }

    /** A new session for an {@code initialize}, not yet findable: it is registered once initialize succeeds. */
    HttpSession create(String principal) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return new HttpSession(HexFormat.of().formatHex(bytes), principal, retryMillis, json, nanoTime);
    }

    /** How many sessions are open now. */
    int size() {
        return sessions.size();
    }

    void register(HttpSession session) {
        sessions.put(session.id(), session);
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
        boolean removed = sessions.remove(session.id(), session);
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
