package dev.mcptasks.adapters.sse;

import dev.mcptasks.testkit.auth.FakeAuthorizer;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.eventually;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.sse.LegacySsePeer.Refusal;
import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RecordingListener;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MCP authorization on the legacy HTTP+SSE transport: the authorizer's header on the stream's GET and on every POST,
 * challenges (401, 403 {@code insufficient_scope}) answered by sending the same request again, at most
 * {@link HttpAuthorizer#MAX_CHALLENGES} times, and {@code AUTH_REQUIRED} when no credential can be had.
 */
class LegacySseAuthorizationTest {
    private static final String CHALLENGE = "Bearer resource_metadata=\"http://127.0.0.1/.well-known/"
            + "oauth-protected-resource/sse\"";
    private static final String STEP_UP = "Bearer error=\"insufficient_scope\", scope=\"mcp:write\"";

    private final LegacySsePeer peer = newPeer();
    private final RecordingListener listener = new RecordingListener();
    private McpTransport transport;

    private static LegacySsePeer newPeer() {
        try {
            return new LegacySsePeer();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        if (transport != null) {
            transport.close();
        }
        peer.close();
    }

    private void start(HttpAuthorizer authorizer, Map<String, String> headers) {
        transport = new SseTransportFactory(server -> authorizer).create(new McpServerSpec("legacy", null, null, null,
                null, peer.url(), headers, null, null, 64 * 1024, 0, McpServerSpec.SSE));
        transport.start(listener);
    }

    private static String request(String id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    /** Refuses requests of {@code method} that do not carry {@code token} with 401. */
    private void require(String method, String token) {
        peer.refuse = seen -> seen.method().equals(method) && !token.equals(seen.authorization())
                ? new Refusal(401, CHALLENGE) : null;
    }

    @Test
    void theAuthorizersHeaderGoesOnTheStreamAndEveryPostInsteadOfAConfiguredOne() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        start(authorizer, Map.of("Authorization", "Bearer configured"));

        transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);
        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);

        assertThat(peer.requests).hasSize(3).allSatisfy(seen -> assertThat(seen.headers().getAll("Authorization"))
                .as(seen.method()).containsExactly("Bearer t0"));
        assertThat(authorizer.challenges).isEmpty();
    }

    @Test
    void aChallengedStreamOpensAgainWithTheNewToken() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        require("GET", "Bearer t1");
        start(authorizer, Map.of());

        transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("1", "{}"));
        assertThat(authorizer.seen()).containsExactly(new AuthChallenge(peer.url(), 401, CHALLENGE, null));
        assertThat(peer.seen("GET")).extracting(LegacySsePeer.Seen::authorization).containsExactly(null,
                "Bearer t1");
        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::authorization).containsExactly("Bearer t1");
    }

    @Test
    void aStreamThatCannotBeAuthorizedFailsEverySendAuthRequiredWithTheReason() {
        FakeAuthorizer authorizer = new FakeAuthorizer(null).refusing("run bin/mcp-tasks auth login legacy");
        require("GET", "Bearer never");
        start(authorizer, Map.of());

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(refused.sent()).isFalse();
        assertThat(refused.retryable()).isFalse();
        assertThat(refused).hasMessageContaining("server 'legacy'")
                .hasMessageContaining("run bin/mcp-tasks auth login legacy");
        assertThat(failure(transport.send(request("2", "echo"))).kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(peer.seen("POST")).isEmpty();
        assertThat(listener.closedCalls()).as("no session was ever open").isZero();
    }

    @Test
    void aStreamRefusedAgainAndAgainFailsAuthRequiredAfterThreeChallenges() {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        require("GET", "Bearer never");
        start(authorizer, Map.of());

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(refused).hasMessageContaining("'legacy'");
        assertThat(authorizer.challenges).hasSize(HttpAuthorizer.MAX_CHALLENGES);
        assertThat(peer.seen("GET")).extracting(LegacySsePeer.Seen::authorization).containsExactly(null,
                "Bearer t1", "Bearer t2", "Bearer t3");
    }

    @Test
    void aPostRefusedForScopeIsSentAgainWithTheStepUpToken() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        peer.refuse = seen -> seen.method().equals("POST") && !"Bearer t1".equals(seen.authorization())
                ? new Refusal(403, STEP_UP) : null;
        start(authorizer, Map.of());

        transport.send(request("7", "echo")).get(5, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("7", "{}"));
        assertThat(authorizer.seen()).containsExactly(new AuthChallenge(peer.url(), 403, STEP_UP, "Bearer t0"));
        assertThat(peer.seen("POST")).hasSize(2).allSatisfy(post -> assertThat(post.body())
                .isEqualTo(request("7", "echo")));
        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::authorization).containsExactly("Bearer t0",
                "Bearer t1");
    }

    @Test
    void a403WithoutInsufficientScopeStaysAnHttpStatus() {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        peer.refuse = seen -> seen.method().equals("POST") ? new Refusal(403, "Bearer error=\"invalid_token\"")
                : null;
        start(authorizer, Map.of());

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(refused.httpStatus()).isEqualTo(403);
        assertThat(authorizer.challenges).isEmpty();
    }

    @Test
    void aPostRefusedAgainAndAgainFailsAuthRequiredAfterThreeAndTheSessionStays() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        require("POST", "Bearer never");
        start(authorizer, Map.of());

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(refused.sent()).isFalse();
        assertThat(authorizer.challenges).hasSize(HttpAuthorizer.MAX_CHALLENGES);
        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::authorization).containsExactly("Bearer t0",
                "Bearer t1", "Bearer t2", "Bearer t3");
        assertThat(listener.closedCalls()).isZero();
        assertThat(peer.closedByClient).as("the stream stays open").isEmpty();
    }

    @Test
    void aRefusedPostFailsAuthRequiredWithoutAuthorizer() {
        require("POST", "Bearer never");
        transport = new SseTransportFactory().create(McpServerSpec.sse("legacy", peer.url(),
                Map.of("Authorization", "Bearer configured")));
        transport.start(listener);

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.AUTH_REQUIRED);
        assertThat(refused).hasMessageContaining("server 'legacy'").hasMessageContaining("no auth is configured");
        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::authorization).containsExactly(
                "Bearer configured");
    }

    @Test
    void theChallengeIsAnsweredOnAnotherThreadWhileOtherPostsGoOn() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        CompletableFuture<AuthAttempt> pending = new CompletableFuture<>();
        authorizer.answers = challenge -> pending;
        peer.refuse = seen -> seen.method().equals("POST") && seen.body().contains("\"tools/call\"")
                && !"Bearer late".equals(seen.authorization()) ? new Refusal(401, CHALLENGE) : null;
        start(authorizer, Map.of());

        CompletableFuture<Void> call = transport.send(request("1", "tools/call"));
        eventually(() -> authorizer.challenges.size() == 1, "the challenge reached the authorizer");
        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).as("the event loop is free while the challenge is answered")
                .isEqualTo(ScriptedPeer.echo("2", "{}"));
        assertThat(call).isNotDone();
        new Thread(() -> pending.complete(new AuthAttempt.Retry("Bearer late")), "authorizer").start();
        call.get(5, TimeUnit.SECONDS);
        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::authorization).containsExactly(null, null,
                "Bearer late");
    }

    @Test
    void abandoningAPostWaitingForItsChallengeFailsItUnsentAndNeverSendsIt() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);
        CompletableFuture<AuthAttempt> pending = new CompletableFuture<>();
        authorizer.answers = challenge -> pending;
        require("POST", "Bearer late");
        start(authorizer, Map.of());
        CompletableFuture<Void> call = transport.send(request("1", "echo"));
        eventually(() -> authorizer.challenges.size() == 1, "the challenge reached the authorizer");

        transport.abandon(call);

        McpTransportException abandoned = failure(call);
        assertThat(abandoned.kind()).isEqualTo(Kind.CLOSED);
        assertThat(abandoned.sent()).as("the server refused it before acting").isFalse();
        // the answer, late: an abandoned POST is not sent again (it would be, inline, before request 2 starts)
        pending.complete(new AuthAttempt.Retry("Bearer late"));
        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);
        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::body).containsExactly(request("1", "echo"),
                request("2", "echo"), request("2", "echo"));
    }

    @Test
    void aRefreshBetweenTwoPostsIsPickedUpByTheNext() throws Exception {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer old");
        start(authorizer, Map.of());

        transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);
        authorizer.refresh("Bearer new");
        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);

        assertThat(peer.seen("POST")).extracting(LegacySsePeer.Seen::authorization).containsExactly("Bearer old",
                "Bearer new");
    }
}
