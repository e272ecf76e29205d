package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HttpSessionsTest {
    private final AtomicLong nanos = new AtomicLong();
    private final HttpSessions sessions = new HttpSessions(1000, json -> json.toString(), nanos::get, 2,
            new RetainedAnswers(RetainedAnswers.DEFAULT_BUDGET));

    private HttpSession open(String principal) {
        nanos.addAndGet(1_000);
        HttpSession session = sessions.create(principal);
        assertThat(sessions.register(session)).isEmpty();
        return session;
    }

    @Test
    void aPrincipalOverItsCapLosesItsLeastRecentlyUsedSessionAndNoOneElses() {
        HttpSession first = open("alice");
        HttpSession second = open("alice");
        HttpSession bobs = open("bob");
        nanos.addAndGet(1_000);
        assertThat(sessions.find(first.id(), "alice")).isInstanceOf(HttpSessions.Lookup.Found.class);

        nanos.addAndGet(1_000);
        HttpSession third = sessions.create("alice");
        assertThat(sessions.register(third)).contains(second);

        assertThat(sessions.find(second.id(), "alice")).isInstanceOf(HttpSessions.Lookup.Unknown.class);
        assertThat(sessions.find(first.id(), "alice")).isInstanceOf(HttpSessions.Lookup.Found.class);
        assertThat(sessions.find(third.id(), "alice")).isInstanceOf(HttpSessions.Lookup.Found.class);
        assertThat(sessions.find(bobs.id(), "bob")).isInstanceOf(HttpSessions.Lookup.Found.class);
        assertThat(sessions.count("alice")).isEqualTo(2);
        assertThat(sessions.count("bob")).isEqualTo(1);
    }

    @Test
    void thousandsOfSessionsOfOnePrincipalKeepOnlyItsCap() {
        for (int i = 0; i < 3_000; i++) {
            HttpSession session = sessions.create("flood");
            nanos.addAndGet(1_000);
            sessions.register(session);
        }
        assertThat(sessions.count("flood")).isEqualTo(2);
        assertThat(sessions.endAll()).hasSize(2);
        assertThat(sessions.count("flood")).isZero();
    }
}
