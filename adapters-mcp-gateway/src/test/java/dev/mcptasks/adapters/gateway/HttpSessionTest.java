package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** 2025-11-25 sessions on the HTTP endpoint: created by initialize, required afterwards, ended by DELETE. */
class HttpSessionTest {
    private GatewayFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void initializeCreatesASessionThatLaterRequestsCarry() throws Exception {
        fixture = new GatewayFixture();
        String session = fixture.initialize();
        FrontRequest initialize = fixture.dispatcher.next("initialize");
        assertThat(initialize.session().id()).isEqualTo(session);
        assertThat(initialize.principal()).isEqualTo(GatewaySettings.DEFAULT_ANONYMOUS_PRINCIPAL);

        try (WireClient.Response response = fixture.request(session, 2, "tools/list").send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Type")).startsWith("application/json");
            assertThat(response.json().path("result").path("method").asText()).isEqualTo("tools/list");
            assertThat(response.json().path("id").asInt()).isEqualTo(2);
        }
        assertThat(fixture.dispatcher.next("tools/list").session()).isSameAs(initialize.session());
    }

    @Test
    void aRequestWithoutASessionGets400AndAnUnknownSessionGets404() {
        fixture = new GatewayFixture();
        fixture.initialize();
        try (WireClient.Response missing = fixture.request(null, 2, "tools/list").send()) {
            assertThat(missing.status()).isEqualTo(400);
            assertThat(missing.json().path("error").path("message").asText()).contains("Mcp-Session-Id");
        }
        try (WireClient.Response unknown = fixture.request("0123456789abcdef", 3, "tools/list").send()) {
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.SESSION_NOT_FOUND);
        }
    }

    @Test
    void anotherPrincipalPresentingTheSessionIdGetsTheSame404AsForAnUnknownOne() {
        fixture = new GatewayFixture(GatewaySettings.defaults()
                .withBearerTokens(Map.of("token-a", "alice", "token-b", "bob")));
        String session;
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Authorization", "Bearer token-a").send()) {
            session = response.header(HttpReplies.SESSION_ID);
            assertThat(session).isNotNull();
        }
        try (WireClient.Response bob = fixture.request(session, 2, "tools/list")
                .header("Authorization", "Bearer token-b").send()) {
            assertThat(bob.status()).isEqualTo(404);
        }
        try (WireClient.Response alice = fixture.request(session, 3, "tools/list")
                .header("Authorization", "Bearer token-a").send()) {
            assertThat(alice.status()).isEqualTo(200);
        }
    }

    @Test
    void aNotificationIsAcceptedWith202OnceTheDispatcherHasIt() throws Exception {
        fixture = new GatewayFixture();
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.client
                .post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(response.status()).isEqualTo(202);
            assertThat(response.body()).isEmpty();
        }
        assertThat(fixture.dispatcher.next("notifications/initialized").session().id()).isEqualTo(session);
    }

    @Test
    void aResponseToAServerRequestIsAcceptedWith202() throws Exception {
        fixture = new GatewayFixture();
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.client
                .post("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"action\":\"accept\"}}")
                .header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(response.status()).isEqualTo(202);
        }
    }

    @Test
    void aRefusedInitializeLeavesNoSession() throws Exception {
        fixture = new GatewayFixture();
        fixture.dispatcher.answer("initialize", request -> CompletableFuture.completedFuture(
                Optional.of(FakeDispatcher.error(request, JsonRpc.INVALID_PARAMS, "unsupported"))));
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE).send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header(HttpReplies.SESSION_ID)).isNull();
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_PARAMS);
        }
        String refused = fixture.dispatcher.next("initialize").session().id();
        assertThat(fixture.dispatcher.nextClosed().id()).isEqualTo(refused);
        try (WireClient.Response later = fixture.request(refused, 2, "ping").send()) {
            assertThat(later.status()).isEqualTo(404);
        }
    }

    @Test
    void anUnsupportedProtocolVersionHeaderGets400() {
        fixture = new GatewayFixture();
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.request(session, 2, "ping")
                .header("MCP-Protocol-Version", "1999-01-01").send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("message").asText()).contains("1999-01-01");
        }
        try (WireClient.Response older = fixture.request(session, 3, "ping")
                .header("MCP-Protocol-Version", "2025-03-26").send()) {
            assertThat(older.status()).isEqualTo(200);
        }
    }

    @Test
    void deleteEndsTheSessionAndTellsTheDispatcher() throws Exception {
        fixture = new GatewayFixture();
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.client.delete().header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(response.status()).isEqualTo(200);
        }
        assertThat(fixture.dispatcher.nextClosed().id()).isEqualTo(session);
        try (WireClient.Response after = fixture.request(session, 2, "ping").send()) {
            assertThat(after.status()).isEqualTo(404);
        }
        try (WireClient.Response again = fixture.client.delete().header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(again.status()).isEqualTo(404);
        }
    }

    @Test
    void aSessionIdleForTheTimeoutIsEndedAsByADelete() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withSessionIdleTimeout(Duration.ofMinutes(10)));
        String idle = fixture.initialize();
        fixture.clock.advance(Duration.ofMinutes(9));
        assertThat(fixture.dispatcher.closedCount()).isZero();
        try (WireClient.Response active = fixture.request(idle, 2, "ping").send()) {
            assertThat(active.status()).isEqualTo(200);
        }
        fixture.clock.advance(Duration.ofMinutes(9));
        assertThat(fixture.dispatcher.closedCount()).as("a request restarts the idle time").isZero();
        fixture.clock.advance(Duration.ofMinutes(2));
        assertThat(fixture.dispatcher.nextClosed().id()).isEqualTo(idle);
        try (WireClient.Response after = fixture.request(idle, 3, "ping").send()) {
            assertThat(after.status()).isEqualTo(404);
        }
    }

    @Test
    void aSessionWithAConnectedStreamOrAPendingAnswerIsNotIdle() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withSessionIdleTimeout(Duration.ofMinutes(10)));
        String listening = fixture.initialize();
        String waiting = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response stream = fixture.client.get().header(HttpReplies.SESSION_ID, listening).send();
                WireClient.Response call = fixture.request(waiting, 2, "tools/call")
                        .header("Accept", "application/json").send()) {
            assertThat(stream.nextEvent().data()).isEmpty();
            FrontRequest pending = fixture.dispatcher.next("tools/call");
            fixture.clock.advance(Duration.ofHours(1));
            assertThat(fixture.dispatcher.closedCount()).isZero();
            gate.complete(Optional.of(FakeDispatcher.result(pending, JsonNodeFactory.instance.objectNode())));
            assertThat(call.status()).isEqualTo(200);
        }
        // The gateway learns of the closed stream asynchronously; idle time counts from then, so keep moving the
        // clock until both sessions are swept (or the deadline passes).
        Set<String> closed = new HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closed.size() < 2 && System.nanoTime() < deadline) {
            fixture.clock.advance(Duration.ofMinutes(11));
            FrontSession swept = fixture.dispatcher.pollClosed(Duration.ofMillis(50));
            if (swept != null) {
                closed.add(swept.id());
            }
        }
        assertThat(closed).containsExactlyInAnyOrder(listening, waiting);
    }

    @Test
    void anAnswerStreamWhoseClientLeftDoesNotKeepTheSessionAliveAndIsCancelledWithIt() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withSessionIdleTimeout(Duration.ofMinutes(10))
                .withStreaming(new GatewaySettings.Streaming(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1),
                        Duration.ZERO)));
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response stream = fixture.request(session, 2, "tools/call").send()) {
            assertThat(stream.nextEvent().data()).isEmpty();
            fixture.dispatcher.next("tools/call");
            fixture.clock.advance(Duration.ofHours(1));
            assertThat(fixture.dispatcher.closedCount()).as("its client is still connected").isZero();
        }
        FrontSession swept = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (swept == null && System.nanoTime() < deadline) {
            fixture.clock.advance(Duration.ofMinutes(11));
            swept = fixture.dispatcher.pollClosed(Duration.ofMillis(50));
        }
        assertThat(swept).isNotNull();
        assertThat(swept.id()).isEqualTo(session);
        assertThat(gate).failsWithin(Duration.ofSeconds(10));
        assertThat(gate.isCancelled()).isTrue();
    }

    @Test
    void closingTheGatewayEndsEverySession() throws Exception {
        fixture = new GatewayFixture();
        String first = fixture.initialize();
        String second = fixture.initialize();
        FakeDispatcher dispatcher = fixture.dispatcher;
        fixture.close();
        fixture = null;
        Set<String> closed = new HashSet<>();
        closed.add(dispatcher.nextClosed().id());
        closed.add(dispatcher.nextClosed().id());
        assertThat(closed).containsExactlyInAnyOrder(first, second);
    }
}
