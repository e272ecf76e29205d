package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.gateway.StoredFrontSession;
import dev.mcptasks.testkit.InMemoryFrontSessionStore;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions kept in a {@link FrontSessionStore}: a gateway restarted on the same store, and a second gateway on it,
 * serve a client's session under the same id; another principal's id and an id not in the store still get 404; DELETE
 * and the idle timeout end it in the store too; the last use is written at most once a minute.
 */
class DurableSessionsTest {
    private static final Map<String, String> TOKENS = Map.of("token-alice-0123", "alice", "token-bob-0123456", "bob");
    private static final GatewaySettings SETTINGS = GatewaySettings.defaults().withBearerTokens(TOKENS)
            .withSessionIdleTimeout(Duration.ofMinutes(10));

    private final RecordingStore store = new RecordingStore();
    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private final ManualClock clock = new ManualClock(START);
    private final List<GatewayFixture> gateways = new ArrayList<>();

    @AfterEach
    void stop() {
        gateways.forEach(GatewayFixture::close);
    }

    private GatewayFixture gateway(GatewaySettings settings) {
        GatewayFixture gateway = new GatewayFixture(settings, store, clock);
        gateways.add(gateway);
        return gateway;
    }

    private GatewayFixture gateway() {
        return gateway(SETTINGS);
    }

    private static String initialize(GatewayFixture gateway, String token) {
        try (WireClient.Response response = gateway.client.post(GatewayFixture.INITIALIZE.replace(
                "\"capabilities\":{}", "\"capabilities\":{\"elicitation\":{}}"))
                .header("Authorization", "Bearer " + token).send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header(HttpReplies.SESSION_ID)).isNotNull();
            return response.header(HttpReplies.SESSION_ID);
        }
    }

    /** Alice's GET stream of {@code session}, open: its client stays connected while the test holds it. */
    private static WireClient.Response openStream(GatewayFixture gateway, String session) {
        WireClient.Response stream = gateway.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Authorization", "Bearer token-alice-0123").send();
        assertThat(stream.status()).isEqualTo(200);
        return stream;
    }

    private static int ping(GatewayFixture gateway, String session, String token, int id) {
        try (WireClient.Response response = gateway.request(session, id, "ping")
                .header("Authorization", "Bearer " + token).send()) {
            return response.status();
        }
    }

    @Test
    void aRestartedGatewayServesTheSameSessionUnderTheSameId() throws Exception {
        GatewayFixture before = gateway();
        String session = initialize(before, "token-alice-0123");
        StoredFrontSession stored = store.find(session).orElseThrow();
        assertThat(stored.principal()).isEqualTo("alice");
        assertThat(stored.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(stored.capabilitiesJson()).isEqualTo("{\"elicitation\":{}}");
        assertThat(stored.createdAt()).isEqualTo(clock.now());
        before.close();

        GatewayFixture after = gateway();
        assertThat(ping(after, session, "token-alice-0123", 2)).isEqualTo(200);
        FrontRequest ping = after.dispatcher.next("ping");
        assertThat(ping.session().id()).isEqualTo(session);
        assertThat(ping.principal()).isEqualTo("alice");
        assertThat(ping(after, session, "token-alice-0123", 3)).isEqualTo(200);
        assertThat(after.dispatcher.next("ping").session()).isSameAs(ping.session());
    }

    @Test
    void aGetStreamResumesOnTheRestartedGatewayAsANewStream() {
        GatewayFixture before = gateway();
        String session = initialize(before, "token-alice-0123");
        before.close();

        GatewayFixture after = gateway();
        try (WireClient.Response stream = after.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Authorization", "Bearer token-alice-0123").send()) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.header("Content-Type")).startsWith("text/event-stream");
        }
    }

    @Test
    void twoGatewaysOnOneStoreServeOneSessionAlternately() throws Exception {
        GatewayFixture first = gateway();
        GatewayFixture second = gateway();
        String session = initialize(first, "token-alice-0123");
        for (int i = 0; i < 3; i++) {
            assertThat(ping(second, session, "token-alice-0123", 10 + i)).isEqualTo(200);
            assertThat(second.dispatcher.next("ping").session().id()).isEqualTo(session);
            assertThat(ping(first, session, "token-alice-0123", 20 + i)).isEqualTo(200);
            assertThat(first.dispatcher.next("ping").session().id()).isEqualTo(session);
        }
    }

    @Test
    void anotherPrincipalsIdAndAnIdNotInTheStoreGetTheSame404() {
        GatewayFixture before = gateway();
        String alices = initialize(before, "token-alice-0123");
        before.close();

        GatewayFixture after = gateway();
        try (WireClient.Response bob = after.request(alices, 2, "ping")
                .header("Authorization", "Bearer token-bob-0123456").send();
                WireClient.Response unknown = after.request("0123456789abcdef0123456789abcdef", 3, "ping")
                        .header("Authorization", "Bearer token-alice-0123").send()) {
            assertThat(bob.status()).isEqualTo(404);
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(bob.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.SESSION_NOT_FOUND);
            assertThat(bob.json().path("error").path("message").asText())
                    .isEqualTo("Session not found: " + alices);
            assertThat(unknown.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.SESSION_NOT_FOUND);
        }
        // bob's attempt did not take the session over: alice still has it
        assertThat(ping(after, alices, "token-alice-0123", 4)).isEqualTo(200);
    }

    @Test
    void aDeleteEndsTheSessionInTheStoreForEveryGateway() throws Exception {
        GatewayFixture first = gateway();
        String session = initialize(first, "token-alice-0123");
        try (WireClient.Response deleted = first.client.delete().header(HttpReplies.SESSION_ID, session)
                .header("Authorization", "Bearer token-alice-0123").send()) {
            assertThat(deleted.status()).isEqualTo(200);
        }
        assertThat(first.dispatcher.nextClosed().id()).isEqualTo(session);
        assertThat(store.next("delete")).isEqualTo(session);
        assertThat(store.find(session)).isEmpty();

        assertThat(ping(first, session, "token-alice-0123", 2)).isEqualTo(404);
        GatewayFixture restarted = gateway();
        assertThat(ping(restarted, session, "token-alice-0123", 3)).isEqualTo(404);
    }

    @Test
    void aSessionDeletedOnAnotherGatewayEndsHereAtItsNextRecordedUse() throws Exception {
        // the first gateway still holds the session in memory: within a minute it writes the last use, finds the
        // session gone from the store, and ends it as a DELETE would
        GatewayFixture first = gateway();
        GatewayFixture second = gateway();
        String session = initialize(first, "token-alice-0123");
        assertThat(ping(second, session, "token-alice-0123", 2)).isEqualTo(200);
        try (WireClient.Response deleted = second.client.delete().header(HttpReplies.SESSION_ID, session)
                .header("Authorization", "Bearer token-alice-0123").send()) {
            assertThat(deleted.status()).isEqualTo(200);
        }
        assertThat(store.next("delete")).isEqualTo(session);

        assertThat(ping(first, session, "token-alice-0123", 3)).isEqualTo(200);
        clock.advance(Duration.ofMinutes(1));
        assertThat(ping(first, session, "token-alice-0123", 4)).isEqualTo(404);
        assertThat(first.dispatcher.nextClosed().id()).isEqualTo(session);
        assertThat(ping(first, session, "token-alice-0123", 5)).isEqualTo(404);
    }

    @Test
    void theLastUseIsWrittenAtMostOnceAMinute() throws Exception {
        GatewayFixture gateway = gateway(SETTINGS.withSessionIdleTimeout(Duration.ofHours(1)));
        String session = initialize(gateway, "token-alice-0123");
        for (int i = 0; i < 20; i++) {
            assertThat(ping(gateway, session, "token-alice-0123", 10 + i)).isEqualTo(200);
        }
        clock.advance(Duration.ofSeconds(59));
        assertThat(ping(gateway, session, "token-alice-0123", 30)).isEqualTo(200);
        assertThat(store.touches).isEmpty();

        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 20; i++) {
            assertThat(ping(gateway, session, "token-alice-0123", 40 + i)).isEqualTo(200);
        }
        assertThat(store.next("touch")).isEqualTo(session);
        assertThat(store.find(session).orElseThrow().lastUsedAt()).isEqualTo(clock.now());
        assertThat(store.touches).isEmpty();
    }

    @Test
    void aSessionHeldOnlyByItsGetStreamHasItsLastUseWrittenByTheSweep() throws Exception {
        GatewayFixture gateway = gateway();
        String session = initialize(gateway, "token-alice-0123");
        try (WireClient.Response stream = openStream(gateway, session)) {
            clock.advance(Duration.ofMinutes(1));
            assertThat(store.next("touch")).isEqualTo(session);
            assertThat(store.find(session).orElseThrow().lastUsedAt()).isEqualTo(clock.now());
            clock.advance(Duration.ofMinutes(20));
            store.nextPurgeUpTo(clock.now().minus(Duration.ofMinutes(12)));
            assertThat(store.find(session)).as("in use all along: never purged").isPresent();
        }
    }

    @Test
    void aSlowStoreSweepNeitherRacesTheNextOneNorPurgesBySweepsItMissed() throws Exception {
        GatewayFixture gateway = gateway();
        String session = initialize(gateway, "token-alice-0123");
        try (WireClient.Response stream = openStream(gateway, session)) {
            Instant start = clock.now();
            clock.advance(Duration.ofMinutes(1));
            store.nextPurgeUpTo(start.minus(Duration.ofMinutes(11)));
            store.calls.clear();

            CountDownLatch release = store.holdNextTouch();
            clock.advance(Duration.ofMinutes(1));
            assertThat(store.calls.poll(10, TimeUnit.SECONDS)).isEqualTo("touch at +2");
            clock.advance(Duration.ofMinutes(19)); // the sweeps of minutes 3 to 21 fall due while the store is slow
            release.countDown();

            store.nextPurgeUpTo(start.plus(Duration.ofMinutes(21 - 12)));
            assertThat(store.find(session)).as("in use all along: never purged").isPresent();
            assertThat(List.copyOf(store.calls)).as("one store sweep at a time, then one for the sweeps it missed")
                    .containsExactly("purge before -10", "touch at +21", "purge before +9");
        }
    }

    @Test
    void theIdleSweepEndsTheSessionInMemoryAndPurgesItFromTheStore() throws Exception {
        GatewayFixture gateway = gateway();
        String idle = initialize(gateway, "token-alice-0123");
        clock.advance(Duration.ofMinutes(5));
        String used = initialize(gateway, "token-alice-0123");
        clock.advance(Duration.ofMinutes(6));
        assertThat(gateway.dispatcher.nextClosed().id()).isEqualTo(idle);
        assertThat(store.find(idle)).as("kept for the slack of the sweep and of the last-use writes").isPresent();
        assertThat(ping(gateway, used, "token-alice-0123", 1)).isEqualTo(200);

        // unused for the timeout (10 min) plus the sweep's minute plus the last-use writes' minute: purged
        clock.advance(Duration.ofMinutes(2));
        assertThat(store.next("purge")).isEqualTo("1");
        assertThat(store.find(idle)).isEmpty();
        assertThat(store.find(used)).isPresent();
        assertThat(ping(gateway, idle, "token-alice-0123", 2)).isEqualTo(404);
        assertThat(ping(gateway, used, "token-alice-0123", 3)).isEqualTo(200);
    }

    @Test
    void aSessionLeftBehindByAStoppedGatewayIsPurgedByAnotherOnesSweep() throws Exception {
        GatewayFixture stopped = gateway();
        String session = initialize(stopped, "token-alice-0123");
        stopped.close();
        GatewayFixture other = gateway();
        clock.advance(Duration.ofMinutes(13));

        assertThat(store.next("purge")).isEqualTo("1");
        assertThat(store.find(session)).isEmpty();
        assertThat(ping(other, session, "token-alice-0123", 2)).isEqualTo(404);
    }

    @Test
    void restoredSessionsCountTowardsThePrincipalsCap() throws Exception {
        GatewaySettings capped = SETTINGS.withConnections(new GatewaySettings.Connections(Duration.ofSeconds(30),
                1024, 1));
        GatewayFixture first = gateway(capped);
        GatewayFixture second = gateway(capped);
        String older = initialize(first, "token-alice-0123");
        clock.advance(Duration.ofSeconds(1));
        String newer = initialize(second, "token-alice-0123");

        assertThat(ping(second, older, "token-alice-0123", 2)).isEqualTo(200);
        assertThat(second.dispatcher.nextClosed().id()).isEqualTo(newer);
        assertThat(store.next("delete")).isEqualTo(newer);
        assertThat(ping(second, newer, "token-alice-0123", 3)).isEqualTo(404);
        assertThat(ping(second, older, "token-alice-0123", 4)).isEqualTo(200);
    }

    @Test
    void aFailingStoreFailsTheInitializeAndLeavesNoSession() throws Exception {
        store.failing = true;
        GatewayFixture gateway = gateway();
        try (WireClient.Response response = gateway.client.post(GatewayFixture.INITIALIZE)
                .header("Authorization", "Bearer token-alice-0123").send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header(HttpReplies.SESSION_ID)).isNull();
            assertThat(response.json().path("error").path("message").asText())
                    .contains("the session store is unavailable");
        }
        assertThat(gateway.dispatcher.nextClosed()).isNotNull();
    }

    /** The in-memory store, telling the test of each touch, delete and purge that changed something. */
    private static final class RecordingStore implements FrontSessionStore {
        final InMemoryFrontSessionStore delegate = new InMemoryFrontSessionStore();
        final BlockingQueue<String> touches = new LinkedBlockingQueue<>();
        final BlockingQueue<String> deletes = new LinkedBlockingQueue<>();
        final BlockingQueue<String> purges = new LinkedBlockingQueue<>();
        /** Every touch and purge as "touch at +M" and "purge before +M", M minutes from the test's start. */
        final BlockingQueue<String> calls = new LinkedBlockingQueue<>();
        private final BlockingQueue<Instant> purgeCutoffs = new LinkedBlockingQueue<>();
        private final AtomicReference<CountDownLatch> touchHold = new AtomicReference<>();
        volatile boolean failing;

        String next(String kind) throws InterruptedException {
            BlockingQueue<String> queue = switch (kind) {
                case "touch" -> touches;
                case "delete" -> deletes;
                default -> purges;
            };
            String value = queue.poll(10, TimeUnit.SECONDS);
            assertThat(value).as("a " + kind + " within 10 s").isNotNull();
            return value;
        }

        @Override
        public void save(StoredFrontSession session) {
            if (failing) {
                throw new IllegalStateException("the database is away");
            }
            delegate.save(session);
        }

        @Override
        public Optional<StoredFrontSession> find(String id) {
            return delegate.find(id);
        }

        @Override
        public boolean touch(String id, Instant lastUsedAt) {
            calls.add("touch at " + minutes(lastUsedAt));
            CountDownLatch hold = touchHold.getAndSet(null);
            if (hold != null) {
                await(hold);
            }
            boolean found = delegate.touch(id, lastUsedAt);
            touches.add(id);
            return found;
        }

        @Override
        public boolean delete(String id) {
            boolean found = delegate.delete(id);
            deletes.add(id);
            return found;
        }

        @Override
        public int purgeUnusedSince(Instant cutoff, int limit) {
            int deleted = delegate.purgeUnusedSince(cutoff, limit);
            if (deleted > 0) {
                purges.add(Integer.toString(deleted));
            }
            calls.add("purge before " + minutes(cutoff));
            purgeCutoffs.add(cutoff);
            return deleted;
        }

        /** Holds the next touch until the returned latch is counted down. */
        CountDownLatch holdNextTouch() {
            CountDownLatch hold = new CountDownLatch(1);
            touchHold.set(hold);
            return hold;
        }

        /** Waits for a purge with a cutoff of {@code cutoff}: the purge the sweep of that time made has run. */
        void nextPurgeUpTo(Instant cutoff) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                Instant next = purgeCutoffs.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertThat(next).as("a purge before " + cutoff + " within 10 s").isNotNull();
                if (next.equals(cutoff)) {
                    return;
                }
            }
        }

        private static String minutes(Instant at) {
            long minutes = Duration.between(START, at).toMinutes();
            return (minutes < 0 ? "" : "+") + minutes;
        }

        private static void await(CountDownLatch latch) {
            try {
                assertThat(latch.await(10, TimeUnit.SECONDS)).as("released within 10 s").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
