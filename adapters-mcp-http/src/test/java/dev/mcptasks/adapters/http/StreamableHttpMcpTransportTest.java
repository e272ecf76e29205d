package dev.mcptasks.adapters.http;

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
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Streamable HTTP specifics beyond the contract, against the in-test scripted server. */
class StreamableHttpMcpTransportTest {
    private static final String VERSION = "2025-11-25";

    private ScriptedHttpPeer peer;
    private McpTransport transport;
    private final RecordingListener listener = new RecordingListener();

    @AfterEach
    void tearDown() {
        if (transport != null) {
            transport.close();
        }
        if (peer != null) {
            peer.close();
        }
    }

    private void start(ScriptedHttpPeer.Mode mode, Map<String, String> headers, Duration readTimeout) throws Exception {
        peer = new ScriptedHttpPeer(mode);
        start(peer.url(), headers, readTimeout);
    }

    private void start(URI url, Map<String, String> headers, Duration readTimeout) {
        transport = new HttpTransportFactory().create(new McpServerSpec("peer", null, null, null, null, url, headers,
                Duration.ofSeconds(5), readTimeout, 0));
        transport.start(listener);
    }

    private static McpServerSpec spec(URI url) {
        return new McpServerSpec("peer", null, null, null, null, url, Map.of(), Duration.ofSeconds(5), null, 0);
    }

    private static String request(int id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    private static void await(CompletableFuture<Void> future) throws Exception {
        future.get(15, TimeUnit.SECONDS);
    }

    @Test
    void sessionIdProtocolVersionAndConfiguredHeadersTravelOnEveryLaterRequest() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of("Authorization", "Bearer s3cret"), null);
        await(transport.send(request(1, "initialize")));
        transport.protocolVersionNegotiated(VERSION);
        String session = peer.getStreamOpened.poll(15, TimeUnit.SECONDS);
        await(transport.send(request(2, "tools/list")));
        transport.close();

        List<ScriptedHttpPeer.Seen> seen = peer.requests;
        assertThat(seen).extracting(ScriptedHttpPeer.Seen::method).containsExactly("POST", "GET", "POST", "DELETE");
        assertThat(seen).allSatisfy(r -> assertThat(r.headers().get("Authorization")).isEqualTo("Bearer s3cret"));
        assertThat(seen.get(0).headers().contains(SessionHeaders.SESSION_ID)).isFalse();
        assertThat(seen.get(0).headers().contains(SessionHeaders.PROTOCOL_VERSION)).isFalse();
        for (ScriptedHttpPeer.Seen later : seen.subList(1, seen.size())) {
            assertThat(later.headers().get(SessionHeaders.SESSION_ID)).isEqualTo(session);
            assertThat(later.headers().get(SessionHeaders.PROTOCOL_VERSION)).isEqualTo(VERSION);
        }
        assertThat(seen.get(2).headers().get("Accept")).isEqualTo("application/json, text/event-stream");
        assertThat(seen.get(2).headers().get("Content-Type")).isEqualTo("application/json");
        assertThat(seen.get(1).headers().get("Accept")).isEqualTo("text/event-stream");
    }

    @Test
    void aResumedTransportSpeaksInTheGivenSessionAtOnceAndLeavesItAliveOnClose() throws Exception {
        start(ScriptedHttpPeer.Mode.JSON, Map.of(), null);
        await(transport.send(request(1, "initialize")));
        transport.protocolVersionNegotiated(VERSION);
        String session = transport.sessionId().orElseThrow();
        // the creating worker dies without a word: its session stays with the server
        transport.detach();
        RecordingListener resumedListener = new RecordingListener();
        McpTransport resumed = new HttpTransportFactory().resume(spec(peer.url()), session, VERSION);
        resumed.start(resumedListener);
        await(resumed.send(request(2, "echo")));
        resumed.close();

        List<ScriptedHttpPeer.Seen> seen = peer.requests;
        assertThat(seen).extracting(ScriptedHttpPeer.Seen::method).doesNotContain("DELETE");
        ScriptedHttpPeer.Seen echo = seen.get(seen.size() - 1);
        assertThat(echo.method()).isEqualTo("POST");
        assertThat(echo.headers().get(SessionHeaders.SESSION_ID)).isEqualTo(session);
        assertThat(echo.headers().get(SessionHeaders.PROTOCOL_VERSION)).isEqualTo(VERSION);
        assertThat(resumed.sessionId()).contains(session);
        assertThat(resumedListener.messages()).anySatisfy(message -> assertThat(message).contains("\"id\":2"));
        assertThat(peer.sessions).contains(session);
    }

    @Test
    void aResumedTransportInASessionTheServerForgotFailsSessionLost() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);
        peer.everythingQuirk = true;
        McpTransport resumed = new HttpTransportFactory().resume(spec(peer.url()), "gone-session", VERSION);
        RecordingListener resumedListener = new RecordingListener();
        resumed.start(resumedListener);
        try {
            McpTransportException lost = failure(resumed.send(request(1, "tasks/get")));
            assertThat(lost.kind()).isEqualTo(Kind.SESSION_LOST);
            assertThat(lost.sent()).as("the server did not take it").isFalse();
        } finally {
            resumed.close();
        }
    }

    @Test
    void headerValuesNeverReachTheLog() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger("dev.mcptasks.adapters.http");
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        try {
            start(ScriptedHttpPeer.Mode.SSE, Map.of("Authorization", "Bearer s3cret"), null);
            await(transport.send(request(1, "initialize")));
            transport.close();
        } finally {
            logger.detachAppender(logs);
        }

        assertThat(logs.list).isNotEmpty();
        assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage).noneMatch(m -> m.contains("s3cret"));
    }

    @Test
    void oversizedSseEventFailsItsSendAndTheStreamGoesOn() throws Exception {
        peer = new ScriptedHttpPeer(ScriptedHttpPeer.Mode.SSE);
        transport = new HttpTransportFactory().create(new McpServerSpec("peer", null, null, null, null, peer.url(),
                Map.of(), null, null, 1000));
        transport.start(listener);

        McpTransportException tooLarge = failure(transport.send(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"big\",\"params\":{\"bytes\":5000}}"));

        assertThat(tooLarge.kind()).isEqualTo(Kind.MESSAGE_TOO_LARGE);
        assertThat(listener.nextError().kind()).isEqualTo(Kind.MESSAGE_TOO_LARGE);
        await(transport.send(request(2, "echo")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("2", "{}"));
    }

    @Test
    void getStreamCarriesServerNotifications() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);
        await(transport.send(request(1, "initialize")));
        listener.nextMessage();
        transport.protocolVersionNegotiated(VERSION);
        assertThat(peer.getStreamOpened.poll(15, TimeUnit.SECONDS)).isNotNull();

        await(transport.send(request(5, ScriptedHttpPeerHandler.PUSH_ON_GET)));

        assertThat(List.of(listener.nextMessage(), listener.nextMessage()))
                .containsExactlyInAnyOrder(ScriptedPeer.notification("5"), ScriptedPeer.echo("5", "{}"));
    }

    @Test
    void getStreamAnswered405IsNotRetried() throws Exception {
        start(ScriptedHttpPeer.Mode.JSON, Map.of(), null);
        await(transport.send(request(1, "initialize")));
        transport.protocolVersionNegotiated(VERSION);
        for (int i = 2; i < 5; i++) {
            await(transport.send(request(i, "echo")));
        }

        assertThat(peer.requests).extracting(ScriptedHttpPeer.Seen::method).filteredOn("GET"::equals).hasSize(1);
    }

    @Test
    void brokenStreamIsResumedWithLastEventIdAndReplaysAreDropped() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);
        await(transport.send(request(1, "echo")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("1", "{}"));

        await(transport.send(request(2, ScriptedHttpPeerHandler.BREAK_AFTER_PRIMING)));

        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("2", "{}"));
        assertThat(listener.messages()).as("the replayed echo of request 1 was dropped by event id").isEmpty();
        ScriptedHttpPeer.Seen resume = peer.requests.get(peer.requests.size() - 1);
        assertThat(resume.method()).isEqualTo("GET");
        assertThat(resume.headers().get(Requests.LAST_EVENT_ID)).isEqualTo("e-3");
    }

    @Test
    void errorStatusesFailTheSendTypedAndTheTransportGoesOn() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);

        McpTransportException serverError = failure(transport.send(request(1, ScriptedPeer.FAIL)));
        McpTransportException badRequest = failure(transport.send(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"fail\",\"params\":{\"status\":422}}"));

        assertThat(serverError.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(serverError.httpStatus()).isEqualTo(500);
        assertThat(serverError.retryable()).isTrue();
        assertThat(badRequest.httpStatus()).isEqualTo(422);
        assertThat(badRequest.retryable()).isFalse();
        await(transport.send(request(3, "echo")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("3", "{}"));
        assertThat(listener.closedCalls()).isZero();
    }

    @Test
    void serverEverythingsBadRequestForAForgottenSessionIsSessionLost() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);
        peer.everythingQuirk = true;
        await(transport.send(request(1, ScriptedPeer.DROP_SESSION)));

        assertThat(failure(transport.send(request(2, "echo"))).kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(listener.closed().get(15, TimeUnit.SECONDS).kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void sessionLossFailsSendsInFlight() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);
        await(transport.send(request(1, "echo")));
        CompletableFuture<Void> hanging = transport.send(request(2, ScriptedPeer.HANG));
        await(transport.send(request(3, ScriptedPeer.DROP_SESSION)));

        assertThat(failure(transport.send(request(4, "echo"))).kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(failure(hanging).kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void closingFromTheListenerCallbackDoesNotDeadlock() throws Exception {
        peer = new ScriptedHttpPeer(ScriptedHttpPeer.Mode.JSON);
        CompletableFuture<Void> closedInCallback = new CompletableFuture<>();
        transport = new HttpTransportFactory().create(McpServerSpec.http("peer", peer.url(), Map.of()));
        McpTransport self = transport;
        transport.start(new McpTransport.Listener() {
            @Override
            public void onMessage(String message) {}

            @Override
            public void onClosed(McpTransportException cause) {
                self.close();
                closedInCallback.complete(null);
            }
        });
        await(transport.send(request(1, ScriptedPeer.DROP_SESSION)));
        transport.send(request(2, "echo"));

        closedInCallback.get(15, TimeUnit.SECONDS);
        assertThat(failure(transport.send(request(3, "echo"))).kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void silentServerHitsTheReadTimeout() throws Exception {
        start(ScriptedHttpPeer.Mode.JSON, Map.of(), Duration.ofMillis(300));

        McpTransportException timeout = failure(transport.send(request(1, ScriptedPeer.HANG)));

        assertThat(timeout.kind()).isEqualTo(Kind.TIMEOUT);
        await(transport.send(request(2, "echo")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("2", "{}"));
    }

    @Test
    void keepAliveConnectionsAreReused() throws Exception {
        start(ScriptedHttpPeer.Mode.SSE, Map.of(), null);
        for (int i = 1; i <= 5; i++) {
            await(transport.send(request(i, "echo")));
        }

        assertThat(peer.connectionCount.get()).isEqualTo(1);
    }

    @Test
    void unreachableServerFailsToConnectWithNothingSent() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        start(URI.create("http://127.0.0.1:" + port + "/mcp"), Map.of(), null);

        McpTransportException failure = failure(transport.send(request(1, "echo")));
        assertThat(failure.kind()).isEqualTo(Kind.CONNECT_FAILED);
        assertThat(failure.sent()).isFalse();
        assertThat(failure).hasMessageContaining("peer");
    }

    @Test
    void httpsToAPlainServerFailsToConnect() throws Exception {
        peer = new ScriptedHttpPeer(ScriptedHttpPeer.Mode.JSON);
        start(URI.create(peer.url().toString().replace("http:", "https:")), Map.of(), null);

        assertThat(failure(transport.send(request(1, "echo"))).kind()).isEqualTo(Kind.CONNECT_FAILED);
    }
}
