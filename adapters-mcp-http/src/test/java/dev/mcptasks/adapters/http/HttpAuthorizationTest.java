package dev.mcptasks.adapters.http;

import dev.mcptasks.testkit.auth.FakeAuthorizer;
import static dev.mcptasks.adapters.http.ResumableSsePeer.challenge;
import static dev.mcptasks.adapters.http.ResumableSsePeer.json;
import static dev.mcptasks.adapters.http.ResumableSsePeer.message;
import static dev.mcptasks.adapters.http.ResumableSsePeer.priming;
import static dev.mcptasks.adapters.http.ResumableSsePeer.sse;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.eventually;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.http.ResumableSsePeer.End;
import dev.mcptasks.adapters.http.ResumableSsePeer.Reply;
import dev.mcptasks.adapters.http.ResumableSsePeer.Seen;
import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MCP authorization on Streamable HTTP: the authorizer's header on every request (POST, the GET stream, resumptions,
 * DELETE), challenges (401, 403 {@code insufficient_scope}) answered by sending the same request again, at most
 * {@link HttpAuthorizer#MAX_CHALLENGES} times, and {@code AUTH_REQUIRED} when no credential can be had.
 */
class HttpAuthorizationTest {
    private static final String VERSION = "2025-11-25";
    private static final String CHALLENGE = "Bearer resource_metadata=\"http://127.0.0.1/.well-known/"
            + "oauth-protected-resource/mcp\", scope=\"mcp:basic\"";
    private static final String STEP_UP = "Bearer error=\"insufficient_scope\", scope=\"mcp:basic mcp:write\"";

    private final RecordingListener listener = new RecordingListener();
    private ResumableSsePeer peer;
    private McpTransport transport;

    @AfterEach
    void tearDown() {
        if (transport != null) {
            transport.close();
        }
        if (peer != null) {
            peer.close();
        }
    }

    private void start(HttpAuthorizer authorizer, Map<String, String> headers, Function<Seen, Reply> script)
            throws Exception {
        peer = new ResumableSsePeer();
        peer.script = script;
        transport = new HttpTransportFactory(server -> authorizer).create(new McpServerSpec("peer", null, null, null,
                null, peer.url(), headers, null, null, 0));
        transport.start(listener);
    }

    private static String request(int id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    private static String result(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
    }

    /** Answers requests carrying {@code token} (JSON, echoing the id) and challenges the rest with 401. */
    private static Function<Seen, Reply> requiring(String token) {
        return seen -> token.equals(seen.headers().get("Authorization")) ? json(200, result(idOf(seen)))
                : challenge(401, CHALLENGE);
    }

    private static int idOf(Seen seen) {
        return Integer.parseInt(seen.body().replaceAll(".*\"id\":(\\d+).*", "$1"));
    }

    private List<Seen> posts() {
        return peer.requests.stream().filter(r -> r.method().equals("POST")).toList();
    }

    @Test
    void aChallengedInitializeIsSentAgainWithTheAuthorizersToken() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        start(authorizer, Map.of(), requiring("Bearer t1"));

        transport.send(request(1, "initialize")).get(15, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(result(1));
        assertThat(authorizer.seen()).containsExactly(new AuthChallenge(peer.url(), 401, CHALLENGE, null));
        assertThat(posts()).hasSize(2);
        assertThat(posts().get(0).headers().contains("Authorization")).isFalse();
        assertThat(posts().get(1).headers().get("Authorization")).isEqualTo("Bearer t1");
        assertThat(posts().get(1).body()).as("the same JSON-RPC request, same id").isEqualTo(request(1, "initialize"));
    }

    @Test
    void insufficientScopeIsAnsweredWithAStepUpToken() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        start(authorizer, Map.of(), seen -> "Bearer t1".equals(seen.headers().get("Authorization"))
                ? json(200, result(idOf(seen))) : challenge(403, STEP_UP));

        transport.send(request(2, "tools/call")).get(15, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(result(2));
        assertThat(authorizer.seen()).containsExactly(new AuthChallenge(peer.url(), 403, STEP_UP, "Bearer t0"));
        assertThat(posts()).extracting(p -> p.headers().get("Authorization")).containsExactly("Bearer t0",
                "Bearer t1");
    }

    @Test
    void aServerThatKeepsRefusingFailsAuthRequiredAfterThreeChallenges() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        start(authorizer, Map.of(), seen -> challenge(401, CHALLENGE));

        McpTransportException failure = failure(transport.send(request(1, "initialize")));

        assertThat(failure.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.sent()).as("a refused request was not acted on").isFalse();
        assertThat(failure).hasMessageContaining("'peer'").hasMessageContaining("401");
        assertThat(authorizer.challenges).hasSize(HttpAuthorizer.MAX_CHALLENGES);
        assertThat(posts()).extracting(p -> p.headers().get("Authorization")).containsExactly(null, "Bearer t1",
                "Bearer t2", "Bearer t3");
        assertThat(listener.closedCalls()).isZero();
    }

    @Test
    void aRefusalFailsAuthRequiredWithItsReasonAndNothingSentAgain() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null).refusing("run bin/mcp-tasks auth login peer");
        start(authorizer, Map.of(), seen -> challenge(401, CHALLENGE));

        McpTransportException failure = failure(transport.send(request(1, "initialize")));

        assertThat(failure.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(failure.sent()).isFalse();
        assertThat(failure).hasMessageContaining("server 'peer'")
                .hasMessageContaining("run bin/mcp-tasks auth login peer");
        assertThat(posts()).hasSize(1);
    }

    @Test
    void withoutAnAuthorizerAChallengeFailsAuthRequiredAndAConfiguredHeaderStillGoesOut() throws Exception {
        peer = new ResumableSsePeer();
        peer.script = seen -> challenge(401, CHALLENGE);
        transport = new HttpTransportFactory().create(McpServerSpec.http("peer", peer.url(),
                Map.of("Authorization", "Bearer configured")));
        transport.start(listener);

        McpTransportException failure = failure(transport.send(request(1, "initialize")));

        assertThat(failure.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(failure).hasMessageContaining("server 'peer'").hasMessageContaining("no auth is configured");
        assertThat(posts()).hasSize(1);
        assertThat(posts().get(0).headers().get("Authorization")).isEqualTo("Bearer configured");
    }

    @Test
    void theAuthorizersHeaderReplacesAConfiguredOneOnceItHasOne() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        start(authorizer, Map.of("Authorization", "Bearer configured"), requiring("Bearer t1"));

        transport.send(request(1, "initialize")).get(15, TimeUnit.SECONDS);
        transport.send(request(2, "tools/list")).get(15, TimeUnit.SECONDS);

        assertThat(authorizer.seen()).extracting(AuthChallenge::sentAuthorization).containsExactly("Bearer configured");
        assertThat(posts()).extracting(p -> p.headers().getAll("Authorization")).containsExactly(
                List.of("Bearer configured"), List.of("Bearer t1"), List.of("Bearer t1"));
    }

    @Test
    void a403WithoutInsufficientScopeStaysAnHttpStatus() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        start(authorizer, Map.of(), seen -> challenge(403, "Bearer error=\"invalid_token\""));

        McpTransportException failure = failure(transport.send(request(1, "tools/call")));

        assertThat(failure.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(failure.httpStatus()).isEqualTo(403);
        assertThat(authorizer.challenges).isEmpty();
    }

    @Test
    void theHeaderTravelsOnTheGetStreamResumptionsAndDelete() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        start(authorizer, Map.of(), seen -> {
            if (seen.method().equals("POST")) {
                return sse(End.CLEAN, priming("p1", 5));
            }
            return seen.lastEventId() == null ? sse(End.HOLD, priming("g1", 5))
                    : sse(End.CLEAN, message("p2", result(1)));
        });
        transport.protocolVersionNegotiated(VERSION);
        eventually(() -> peer.heldOpen.get() == 1, "the GET stream is open");

        transport.send(request(1, "tools/call")).get(15, TimeUnit.SECONDS);
        transport.close();

        assertThat(peer.requests).extracting(Seen::method).containsExactlyInAnyOrder("GET", "POST", "GET", "DELETE");
        assertThat(peer.resumptions()).hasSize(1);
        assertThat(peer.requests).allSatisfy(r -> assertThat(r.headers().getAll("Authorization"))
                .as(r.method()).containsExactly("Bearer t0"));
        assertThat(authorizer.challenges).isEmpty();
    }

    @Test
    void aChallengedResumptionIsSentAgainWithTheSameLastEventId() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        start(authorizer, Map.of(), seen -> {
            if (seen.method().equals("POST")) {
                return sse(End.CLEAN, priming("p1", 5));
            }
            if (seen.lastEventId() == null) {
                return json(405, "");
            }
            // the token expired while the stream was down
            return "Bearer t1".equals(seen.headers().get("Authorization"))
                    ? sse(End.CLEAN, message("p2", result(1))) : challenge(401, CHALLENGE);
        });

        transport.send(request(1, "tools/call")).get(15, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(result(1));
        assertThat(peer.resumptions()).extracting(Seen::lastEventId).containsExactly("p1", "p1");
        assertThat(peer.resumptions()).extracting(r -> r.headers().get("Authorization"))
                .containsExactly("Bearer t0", "Bearer t1");
        assertThat(authorizer.seen()).extracting(AuthChallenge::status).containsExactly(401);
    }

    @Test
    void aResumptionThatCannotBeAuthorizedFailsAuthRequiredAsPossiblySent() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0").refusing("token revoked");
        start(authorizer, Map.of(), seen -> seen.method().equals("POST") ? sse(End.CLEAN, priming("p1", 5))
                : challenge(401, CHALLENGE));

        McpTransportException failure = failure(transport.send(request(1, "tools/call")));

        assertThat(failure.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(failure.sent()).as("the POST went out before its stream broke").isTrue();
        assertThat(failure.retryable()).isFalse();
        assertThat(failure).hasMessageContaining("token revoked");
    }

    @Test
    void aChallengedGetStreamOpensAgainWithTheNewToken() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        String notification = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}";
        start(authorizer, Map.of(), seen -> "Bearer t1".equals(seen.headers().get("Authorization"))
                ? sse(End.HOLD, message("g1", notification)) : challenge(401, CHALLENGE));

        transport.protocolVersionNegotiated(VERSION);

        assertThat(listener.nextMessage()).isEqualTo(notification);
        assertThat(peer.requests).extracting(r -> r.headers().get("Authorization")).containsExactly(null,
                "Bearer t1");
    }

    @Test
    void aGetStreamThatCannotBeAuthorizedStopsAndReportsAuthRequired() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null).refusing("login needed");
        start(authorizer, Map.of(), seen -> challenge(401, CHALLENGE));

        transport.protocolVersionNegotiated(VERSION);

        McpTransportException reported = listener.nextError();
        assertThat(reported.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(reported).hasMessageContaining("login needed");
        assertThat(peer.requests).hasSize(1);
        assertThat(listener.closedCalls()).isZero();
    }

    @Test
    void aChallengedDeleteIsSentAgainWithTheNewToken() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        start(authorizer, Map.of(), seen -> seen.method().equals("GET") ? json(405, "") : requiring("Bearer t1")
                .apply(seen));
        peer.deleteScript = seen -> "Bearer t2".equals(seen.headers().get("Authorization")) ? json(200, "")
                : challenge(401, CHALLENGE);
        transport.send(request(1, "initialize")).get(15, TimeUnit.SECONDS);

        transport.close();

        List<Seen> deletes = peer.requests.stream().filter(r -> r.method().equals("DELETE")).toList();
        assertThat(deletes).extracting(r -> r.headers().get("Authorization")).containsExactly("Bearer t1",
                "Bearer t2");
        assertThat(deletes).allSatisfy(r -> assertThat(r.headers().get(SessionHeaders.SESSION_ID))
                .isEqualTo(ResumableSsePeer.SESSION));
    }

    @Test
    void theChallengeIsAnsweredOnAnotherThreadWhileOtherRequestsGoOn() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        CompletableFuture<AuthAttempt> pending = new CompletableFuture<>();
        authorizer.answers = challenge -> pending;
        // initialize needs a token; ping does not (as in the conformance suite's auth servers, inverted)
        start(authorizer, Map.of(), seen -> seen.body().contains("\"ping\"")
                || "Bearer late".equals(seen.headers().get("Authorization"))
                ? json(200, result(idOf(seen))) : challenge(401, CHALLENGE));

        CompletableFuture<Void> initialize = transport.send(request(1, "initialize"));
        eventually(() -> authorizer.challenges.size() == 1, "the challenge reached the authorizer");
        transport.send(request(2, "ping")).get(15, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).as("the event loop is free while the challenge is answered")
                .isEqualTo(result(2));
        assertThat(initialize).isNotDone();
        Thread answering = new Thread(() -> pending.complete(new AuthAttempt.Retry("Bearer late")), "authorizer");
        answering.start();
        initialize.get(15, TimeUnit.SECONDS);
        assertThat(listener.nextMessage()).isEqualTo(result(1));
        assertThat(posts()).extracting(p -> p.headers().get("Authorization")).containsExactly(null, null,
                "Bearer late");
    }

    @Test
    void abandoningARequestWaitingForItsChallengeFailsItUnsentAndNeverSendsIt() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        CompletableFuture<AuthAttempt> pending = new CompletableFuture<>();
        authorizer.answers = challenge -> pending;
        start(authorizer, Map.of(), requiring("Bearer late"));
        CompletableFuture<Void> call = transport.send(request(1, "tools/call"));
        eventually(() -> authorizer.challenges.size() == 1, "the challenge reached the authorizer");

        transport.abandon(call);

        McpTransportException abandoned = failure(call);
        assertThat(abandoned.kind()).isEqualTo(Kind.CLOSED);
        assertThat(abandoned.sent()).as("the server refused it before acting").isFalse();
        // the answer, late: an abandoned request is not sent again (it would be, inline, before request 2 starts)
        pending.complete(new AuthAttempt.Retry("Bearer late"));
        transport.send(request(2, "tools/call")).get(15, TimeUnit.SECONDS);
        assertThat(posts()).extracting(Seen::body).containsExactly(request(1, "tools/call"),
                request(2, "tools/call"), request(2, "tools/call"));
    }

    @Test
    void aRefreshBetweenTwoRequestsIsPickedUpByTheNext() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer old");
        start(authorizer, Map.of(), seen -> json(200, result(idOf(seen))));

        transport.send(request(1, "tools/list")).get(15, TimeUnit.SECONDS);
        authorizer.refresh("Bearer new");
        transport.send(request(2, "tools/list")).get(15, TimeUnit.SECONDS);

        assertThat(posts()).extracting(p -> p.headers().get("Authorization")).containsExactly("Bearer old",
                "Bearer new");
    }

    @Test
    void aChallenged20260728RequestGoesAgainWithItsFrameHeaders() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        start(authorizer, Map.of(), requiring("Bearer t1"));
        String v2026 = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"work\","
                + "\"_meta\":{\"" + Frame2026.VERSION_KEY + "\":\"2026-07-28\"}}}";

        transport.send(v2026).get(15, TimeUnit.SECONDS);

        assertThat(posts()).hasSize(2).allSatisfy(p -> {
            assertThat(p.headers().get(Frame2026.METHOD_HEADER)).isEqualTo("tools/call");
            assertThat(p.headers().get(Frame2026.NAME_HEADER)).isEqualTo("work");
            assertThat(p.headers().get(SessionHeaders.PROTOCOL_VERSION)).isEqualTo("2026-07-28");
            assertThat(p.body()).isEqualTo(v2026);
        });
        assertThat(posts().get(1).headers().get("Authorization")).isEqualTo("Bearer t1");
    }
}
