package dev.mcptasks.adapters.sse;

import static dev.mcptasks.adapters.httpsupport.TransportWaits.failure;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RecordingListener;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What the legacy transport does beyond the contract: headers, the endpoint rules, losses, letting go, secrets. */
class LegacySseMcpTransportTest {
    private static final String SECRET = "Bearer s3cret-token";

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

    private McpTransport start(Duration connectTimeout, Duration readTimeout) {
        transport = new SseTransportFactory().create(new McpServerSpec("legacy", null, null, null, null, peer.url(),
                Map.of("Authorization", SECRET), connectTimeout, readTimeout, 64 * 1024, 0, McpServerSpec.SSE));
        transport.start(listener);
        return transport;
    }

    private McpTransport start() {
        return start(null, null);
    }

    private static String request(String id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    @Test
    void configuredHeadersGoOnTheStreamAndEveryPostAndTheProtocolVersionOnceNegotiated() throws Exception {
        start();
        transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);
        transport.protocolVersionNegotiated("2024-11-05");
        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);

        LegacySsePeer.Seen get = peer.seen("GET").get(0);
        assertThat(get.uri()).isEqualTo("/sse");
        assertThat(get.headers().get("Accept")).isEqualTo("text/event-stream");
        assertThat(get.headers().get("Authorization")).isEqualTo(SECRET);
        assertThat(peer.seen("POST")).hasSize(2).allSatisfy(post -> {
            assertThat(post.uri()).isEqualTo("/message?sessionId=s-1");
            assertThat(post.headers().get("Authorization")).isEqualTo(SECRET);
            assertThat(post.headers().get("Content-Type")).isEqualTo("application/json");
        });
        assertThat(peer.seen("POST").get(0).headers().get("MCP-Protocol-Version")).isNull();
        assertThat(peer.seen("POST").get(1).headers().get("MCP-Protocol-Version")).isEqualTo("2024-11-05");
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("1", "{}"));
    }

    @Test
    void secretsAreNeverInToStringOrLogs() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(LegacySseMcpTransport.class.getPackageName());
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        try {
            start();
            transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);
            transport.close();
        } finally {
            logger.detachAppender(logs);
        }

        assertThat(transport.toString()).contains("Authorization").doesNotContain("s3cret");
        assertThat(logs.list).isNotEmpty().noneSatisfy(event ->
                assertThat(event.getFormattedMessage()).contains("s3cret"));
    }

    @Test
    void anEndpointOfAnotherOriginIsRefusedAndNothingIsPosted() {
        peer.endpointFormat = "http://localhost:" + peer.port() + "/message?sessionId=%s";
        start();

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.CONNECT_FAILED);
        assertThat(refused.sent()).isFalse();
        assertThat(refused.getMessage()).contains("another origin").contains("http://localhost:" + peer.port());
        assertThat(peer.seen("POST")).isEmpty();
        assertThat(listener.closedCalls()).as("no session was ever open").isZero();
    }

    @Test
    void aRefusedStreamFailsTheSendWithTheStatus() {
        peer.refuseGetWith = 405;
        start();

        McpTransportException refused = failure(transport.send(request("1", "echo")));

        assertThat(refused.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(refused.httpStatus()).isEqualTo(405);
        assertThat(refused.getMessage()).contains("'legacy'").contains("HTTP 405").contains("no SSE here");
        assertThat(peer.seen("POST")).isEmpty();
    }

    @Test
    void aStreamThatNamesNoEndpointFailsWithinTheConnectTimeout() {
        peer.withholdEndpoint = true;
        start(Duration.ofMillis(300), null);

        McpTransportException silent = failure(transport.send(request("1", "echo")));

        assertThat(silent.kind()).isEqualTo(Kind.CONNECT_FAILED);
        assertThat(silent.sent()).isFalse();
        assertThat(silent.getMessage()).contains("no endpoint event");
        assertThat(failure(transport.send(request("2", "echo"))).kind()).isEqualTo(Kind.CONNECT_FAILED);
    }

    @Test
    void aBrokenStreamLosesTheSessionAndAcceptedSendsStayCompleted() throws Exception {
        start();
        CompletableFuture<Void> accepted = transport.send(request("1", ScriptedPeer.HANG));
        accepted.get(5, TimeUnit.SECONDS);

        peer.streams.get("s-1").close();

        McpTransportException cause = listener.closed().get(5, TimeUnit.SECONDS);
        assertThat(cause.kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(cause.getMessage()).contains("SSE stream of server 'legacy' broke");
        assertThat(accepted).isCompletedWithValue(null);
        assertThat(failure(transport.send(request("2", "echo"))).kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void aPostAnswered404LosesTheSession() throws Exception {
        start();
        transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);
        peer.streams.remove("s-1");

        McpTransportException lost = failure(transport.send(request("2", "echo")));

        assertThat(lost.kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(lost.getMessage()).contains("HTTP 404");
        assertThat(listener.closed().get(5, TimeUnit.SECONDS).kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(listener.closedCalls()).isEqualTo(1);
    }

    @Test
    void aSilentStreamEndsTheSessionAfterTheReadTimeout() throws Exception {
        start(null, Duration.ofMillis(300));
        transport.send(request("1", "echo")).get(5, TimeUnit.SECONDS);

        McpTransportException cause = listener.closed().get(5, TimeUnit.SECONDS);

        assertThat(cause.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(cause.getMessage()).contains("silent beyond the read timeout");
    }

    @Test
    void abandoningAnUnansweredPostClosesItsConnectionAndTheTransportKeepsWorking() throws Exception {
        peer.holdPosts = true;
        start();
        CompletableFuture<Void> held = transport.send(request("1", "echo"));
        Channel heldPost = peer.heldPosts.poll(5, TimeUnit.SECONDS);
        assertThat(heldPost).isNotNull();

        transport.abandon(held);

        McpTransportException letGo = failure(held);
        assertThat(letGo.kind()).isEqualTo(Kind.CLOSED);
        assertThat(letGo.sent()).isTrue();
        assertThat(heldPost.closeFuture().await(5, TimeUnit.SECONDS)).as("the POST's connection was closed").isTrue();
        peer.holdPosts = false;
        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("2", "{}"));
        assertThat(listener.closedCalls()).isZero();
    }

    @Test
    void abandoningAnAcceptedSendChangesNothing() throws Exception {
        start();
        CompletableFuture<Void> accepted = transport.send(request("1", ScriptedPeer.HANG));
        accepted.get(5, TimeUnit.SECONDS);

        transport.abandon(accepted);

        transport.send(request("2", "echo")).get(5, TimeUnit.SECONDS);
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("2", "{}"));
        assertThat(peer.closedByClient).as("the shared stream stays open").isEmpty();
    }
}
