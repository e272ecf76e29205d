package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.McpSessionTest.CALLBACKS;
import static dev.mcptasks.mcp.McpSessionTest.failureOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.adapters.stdio.StdioTransportFactory;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Bad input over the real transports: each fault ends as a typed error on the call that met it, the session
 * recovers (re-initializing when the transport is gone) and other calls are unaffected.
 */
class SessionFaultsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int MAX_MESSAGE_BYTES = 64 * 1024;

    static JsonNode await(CompletableFuture<JsonNode> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }

    /** A stdio child that writes junk, oversized lines, or exits. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class OverStdio {
        private final ManualClock clock = new ManualClock();
        private ObservedTransportFactory observed;
        private McpSession session;

        @BeforeAll
        void start() {
            McpServerSpec spec = Endpoints.javaStdio("peer", MisbehavingStdioPeer.class, List.of(), MAX_MESSAGE_BYTES);
            observed = new ObservedTransportFactory(new StdioTransportFactory());
            session = new McpSession(new McpServerSettings(spec, TIMEOUT, true), observed, clock, CALLBACKS, "test");
        }

        @AfterAll
        void stop() {
            session.close();
        }

        @Test
        void junkLinesAndUnknownIdsAreIgnoredAndAnUnansweredCallTimesOut() throws Exception {
            assertThat(await(session.request("garbageThenAnswer", null)).path("survived").asBoolean()).isTrue();

            CompletableFuture<JsonNode> call = session.request("garbage", null);
            observed.awaitReceived(m -> m.contains("junk-done"));
            observed.awaitReceived(m -> m.contains("junk-done"));
            clock.advance(TIMEOUT);

            assertThat(failureOf(call)).isInstanceOf(McpTimeoutException.class);
            assertThat(await(session.request("echo", json("{\"after\":\"junk\"}"))).path("echo").path("after")
                    .asText()).isEqualTo("junk");
            assertThat(observed.created).hasSize(1);
        }

        @Test
        void anOversizedLineIsDiscardedAndItsCallFailsAtOnceNamingTheCap() throws Exception {
            observed.errors.clear();
            CompletableFuture<JsonNode> call = session.request("oversized", json("{\"bytes\":200000}"));
            McpTransportException error = observed.awaitError();
            assertThat(error.kind()).isEqualTo(McpTransportException.Kind.MESSAGE_TOO_LARGE);

            // no clock advance: the answer was recognised by its id, not waited for until the timeout
            assertThat(failureOf(call)).isInstanceOfSatisfying(McpTransportFailure.class, e -> {
                assertThat(e.transportCause().kind()).isEqualTo(McpTransportException.Kind.MESSAGE_TOO_LARGE);
                assertThat(e).hasMessageContaining("cap of " + MAX_MESSAGE_BYTES + " bytes")
                        .hasMessageMatching("(?s).* of 2000\\d\\d bytes.*");
            });
            assertThat(await(session.request("echo", json("{}"))).path("echo")).isEqualTo(json("{}"));
        }

        @Test
        void aServerThatExitsMidCallFailsThatCallRetryablyAndIsRestarted() throws Exception {
            await(session.request("echo", json("{}")));
            int before = observed.created.size();

            assertThat(failureOf(session.request("exit", null))).isInstanceOfSatisfying(McpTransportFailure.class,
                    e -> {
                        assertThat(e.retryable()).isTrue();
                        assertThat(e.transportCause().kind()).isEqualTo(McpTransportException.Kind.PROCESS_EXITED);
                    });

            assertThat(await(session.request("echo", json("{\"back\":1}"))).at("/echo/back").asInt()).isEqualTo(1);
            assertThat(observed.created).hasSize(before + 1);
        }
    }

    /** An HTTP endpoint that fails with 500, cuts SSE streams, sends junk or loses the session. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class OverHttp {
        private final ManualClock clock = new ManualClock();
        private MisbehavingHttpPeer peer;
        private ObservedTransportFactory observed;
        private McpSession session;

        @BeforeAll
        void start() throws Exception {
            peer = new MisbehavingHttpPeer();
            McpServerSpec spec = new McpServerSpec("peer", null, null, null, null, peer.uri(), Map.of(), null,
                    Duration.ofSeconds(10), MAX_MESSAGE_BYTES);
            observed = new ObservedTransportFactory(new HttpTransportFactory());
            session = new McpSession(new McpServerSettings(spec, TIMEOUT, true), observed, clock, CALLBACKS, "test");
        }

        @AfterAll
        void stop() {
            session.close();
            peer.close();
        }

        @Test
        void http500FailsOnlyThatCall() throws Exception {
            await(session.request("echo", json("{}")));
            assertThat(failureOf(session.request("fail500", null))).isInstanceOfSatisfying(McpTransportFailure.class,
                    e -> {
                        assertThat(e.retryable()).isTrue();
                        assertThat(e.transportCause().httpStatus()).isEqualTo(500);
                    });
            assertThat(await(session.request("echo", json("{\"n\":1}"))).at("/echo/n").asInt()).isEqualTo(1);
        }

        @Test
        void aBrokenSseStreamFailsOnlyThatCall() throws Exception {
            await(session.request("echo", json("{}")));
            int sessions = peer.initializations.get();
            assertThat(failureOf(session.request("brokenSse", null))).isInstanceOfSatisfying(
                    McpTransportFailure.class, e -> assertThat(e.transportCause().kind())
                            .isEqualTo(McpTransportException.Kind.STREAM_BROKEN));
            assertThat(await(session.request("echo", json("{\"n\":2}"))).at("/echo/n").asInt()).isEqualTo(2);
            assertThat(peer.initializations.get()).isEqualTo(sessions);
        }

        @Test
        void junkEventsAndUnknownIdsAreIgnored() throws Exception {
            assertThat(await(session.request("garbageThenAnswer", null)).path("survived").asBoolean()).isTrue();
        }

        @Test
        void anOversizedBodyFailsOnlyThatCall() throws Exception {
            assertThat(failureOf(session.request("oversized", null))).isInstanceOfSatisfying(
                    McpTransportFailure.class, e -> {
                        assertThat(e.transportCause().kind()).isEqualTo(McpTransportException.Kind.MESSAGE_TOO_LARGE);
                        assertThat(e).hasMessageContaining("cap of " + MAX_MESSAGE_BYTES + " bytes");
                    });
            assertThat(await(session.request("echo", json("{\"n\":3}"))).at("/echo/n").asInt()).isEqualTo(3);
        }

        @Test
        void aLostSessionReinitializesOnTheNextCall() throws Exception {
            await(session.request("echo", json("{}")));
            int sessions = peer.initializations.get();

            assertThat(failureOf(session.request("sessionGone", null))).isInstanceOfSatisfying(
                    McpTransportFailure.class, e -> assertThat(e.transportCause().kind())
                            .isEqualTo(McpTransportException.Kind.SESSION_LOST));

            assertThat(await(session.request("echo", json("{\"n\":4}"))).at("/echo/n").asInt()).isEqualTo(4);
            assertThat(peer.initializations.get()).isEqualTo(sessions + 1);
        }
    }
}
