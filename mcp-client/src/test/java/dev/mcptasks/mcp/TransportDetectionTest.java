package dev.mcptasks.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A url whose transport is not configured: Streamable HTTP first; a first POST answered 400, 404 or 405 falls back to
 * the legacy HTTP+SSE transport when that one works; the choice is remembered; everything through scripted fakes.
 */
class TransportDetectionTest {
    private static final McpServerSpec SPEC = McpServerSpec.http("legacy", URI.create("http://127.0.0.1:1/sse"),
            Map.of());
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}";

    private final DetectedTransports memory = new DetectedTransports();
    private final ScriptedFactory http = new ScriptedFactory("http");
    private final ScriptedFactory sse = new ScriptedFactory("sse");
    private final McpTransportFactory detecting = new DetectingTransportFactory(http, sse, memory);
    private final RecordingListener listener = new RecordingListener();

    /** A transport whose sends complete as scripted (default: accepted), recording what it was asked. */
    static final class ScriptedTransport implements McpTransport {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<Void>> abandoned = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<Void>> sends = new CopyOnWriteArrayList<>();
        volatile Listener listener;
        final CompletableFuture<Void> closed = new CompletableFuture<>();
        volatile String version;
        volatile McpTransportException failFirst;
        volatile boolean holdFirst;
        /** Delivered to the listener before the send completes (a response outrunning its POST's 202). */
        volatile String answerBeforeAccepting;

        @Override
        public void start(Listener listener) {
            this.listener = listener;
        }

        @Override
        public CompletableFuture<Void> send(String message) {
            sent.add(message);
            if (answerBeforeAccepting != null) {
                listener.onMessage(answerBeforeAccepting);
            }
            CompletableFuture<Void> future = new CompletableFuture<>();
            sends.add(future);
            McpTransportException failure = failFirst;
            if (sent.size() == 1 && failure != null) {
                future.completeExceptionally(failure);
            } else if (!(sent.size() == 1 && holdFirst)) {
                future.complete(null);
            }
            return future;
        }

        @Override
        public void abandon(CompletableFuture<Void> sent) {
            abandoned.add(sent);
        }

        @Override
        public void protocolVersionNegotiated(String version) {
            this.version = version;
        }

        @Override
        public void close() {
            closed.complete(null);
        }
    }

    /** Creates scripted transports of one kind; the next one's first send fails with {@link #failFirst}. */
    static final class ScriptedFactory implements McpTransportFactory {
        final String kind;
        final List<ScriptedTransport> created = new ArrayList<>();
        final List<McpServerSpec> specs = new ArrayList<>();
        volatile McpTransportException failFirst;
        volatile boolean holdFirst;
        volatile String answerBeforeAccepting;

        ScriptedFactory(String kind) {
            this.kind = kind;
        }

        @Override
        public String kind() {
            return kind;
        }

        @Override
        public boolean supports(McpServerSpec spec) {
            return spec.url() != null;
        }

        @Override
        public synchronized McpTransport create(McpServerSpec spec) {
            ScriptedTransport transport = new ScriptedTransport();
            transport.failFirst = failFirst;
            transport.holdFirst = holdFirst;
            transport.answerBeforeAccepting = answerBeforeAccepting;
            created.add(transport);
            specs.add(spec);
            return transport;
        }
    }

    private static McpTransportException failure(CompletableFuture<Void> future) {
        Throwable thrown = catchThrowable(() -> future.get(5, TimeUnit.SECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class);
        return (McpTransportException) thrown.getCause();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 405})
    void aFirstPostRefusedWithTheseStatusesFallsBackToTheLegacyTransport(int status) throws Exception {
        http.failFirst = McpTransportException.httpStatus(status, "server 'legacy' answered HTTP " + status);
        McpTransport transport = detecting.create(SPEC);
        transport.start(listener);

        transport.send(INITIALIZE).get(5, TimeUnit.SECONDS);

        ScriptedTransport streamable = http.created.get(0);
        ScriptedTransport legacy = sse.created.get(0);
        assertThat(streamable.sent).containsExactly(INITIALIZE);
        streamable.closed.get(5, TimeUnit.SECONDS);
        assertThat(legacy.sent).as("the refused message goes again, over the legacy transport")
                .containsExactly(INITIALIZE);
        assertThat(sse.specs.get(0).transport()).isEqualTo("sse");
        transport.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").get(5, TimeUnit.SECONDS);
        assertThat(legacy.sent).hasSize(2);
        assertThat(memory.kindOf(SPEC)).contains("sse");
    }

    @Test
    void theChoiceIsRememberedAndLoggedOnce() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(DetectingTransportFactory.class);
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        try {
            http.failFirst = McpTransportException.httpStatus(404, "not found");
            McpTransport first = detecting.create(SPEC);
            first.start(listener);
            first.send(INITIALIZE).get(5, TimeUnit.SECONDS);

            McpTransport second = detecting.create(SPEC);
            second.start(listener);
            second.send(INITIALIZE).get(5, TimeUnit.SECONDS);
        } finally {
            logger.detachAppender(logs);
        }

        assertThat(http.created).as("the second transport goes straight to the legacy one").hasSize(1);
        assertThat(sse.created).hasSize(2);
        assertThat(logs.list.stream().filter(event -> event.getLevel() == Level.INFO).toList()).singleElement()
                .satisfies(event -> assertThat(event.getFormattedMessage()).contains("server 'legacy'")
                        .contains("HTTP 404").contains("legacy HTTP+SSE transport (2024-11-05)"));
    }

    @Test
    void aWorkingStreamableServerIsRememberedAsSuch() throws Exception {
        McpTransport first = detecting.create(SPEC);
        first.start(listener);
        first.send(INITIALIZE).get(5, TimeUnit.SECONDS);

        McpTransport second = detecting.create(SPEC);
        second.start(listener);
        second.send(INITIALIZE).get(5, TimeUnit.SECONDS);

        assertThat(sse.created).isEmpty();
        assertThat(http.created).hasSize(2);
        assertThat(memory.kindOf(SPEC)).contains("http");
    }

    @Test
    void otherFailuresDoNotFallBack() {
        for (McpTransportException cause : new McpTransportException[] {
            McpTransportException.httpStatus(500, "boom"), McpTransportException.httpStatus(401, "who?"),
            new McpTransportException(Kind.CONNECT_FAILED, "refused")}) {
            http.failFirst = cause;
            McpTransport transport = detecting.create(SPEC);
            transport.start(listener);

            assertThat(failure(transport.send(INITIALIZE))).isSameAs(cause);
        }
        assertThat(sse.created).isEmpty();
        assertThat(memory.kindOf(SPEC)).isEmpty();
    }

    @Test
    void aFallbackThatFailsTooReportsTheOriginalFailureAndKeepsStreamableHttp() throws Exception {
        McpTransportException refused = McpTransportException.httpStatus(400, "Server not initialized");
        http.failFirst = refused;
        sse.failFirst = McpTransportException.httpStatus(405, "no SSE here");
        McpTransport transport = detecting.create(SPEC);
        transport.start(listener);

        assertThat(failure(transport.send(INITIALIZE))).isSameAs(refused);
        ScriptedTransport legacy = sse.created.get(0);
        legacy.closed.get(5, TimeUnit.SECONDS);
        assertThat(memory.kindOf(SPEC)).as("nothing is known yet").isEmpty();

        transport.send(INITIALIZE).get(5, TimeUnit.SECONDS);
        assertThat(http.created.get(0).sent).hasSize(2);
        assertThat(http.created.get(0).closed).isNotDone();
        assertThat(memory.kindOf(SPEC)).contains("http");
    }

    @Test
    void onlyTheChosenTransportSpeaksToTheListener() throws Exception {
        http.failFirst = McpTransportException.httpStatus(405, "Method Not Allowed");
        McpTransport transport = detecting.create(SPEC);
        transport.start(listener);
        transport.send(INITIALIZE).get(5, TimeUnit.SECONDS);
        ScriptedTransport streamable = http.created.get(0);
        ScriptedTransport legacy = sse.created.get(0);

        streamable.listener.onMessage("{\"from\":\"http\"}");
        streamable.listener.onClosed(new McpTransportException(Kind.CLOSED, "closed"));
        legacy.listener.onMessage("{\"from\":\"sse\"}");
        transport.protocolVersionNegotiated("2024-11-05");

        assertThat(listener.nextMessage()).isEqualTo("{\"from\":\"sse\"}");
        assertThat(listener.messages()).isEmpty();
        assertThat(listener.closedCalls()).isZero();
        assertThat(legacy.version).isEqualTo("2024-11-05");
        legacy.listener.onClosed(new McpTransportException(Kind.SESSION_LOST, "stream ended"));
        assertThat(listener.closedCalls()).isEqualTo(1);
        transport.close();
        assertThat(legacy.closed).isDone();
    }

    @Test
    void messagesSentDuringDetectionWaitAndGoWhereTheFirstOneWent() throws Exception {
        http.holdFirst = true;
        McpTransport transport = detecting.create(SPEC);
        transport.start(listener);
        CompletableFuture<Void> first = transport.send(INITIALIZE);
        CompletableFuture<Void> ping = transport.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        ScriptedTransport streamable = http.created.get(0);
        assertThat(streamable.sent).containsExactly(INITIALIZE);
        assertThat(ping).isNotDone();

        streamable.sends.get(0).completeExceptionally(McpTransportException.httpStatus(405, "Method Not Allowed"));

        first.get(5, TimeUnit.SECONDS);
        ping.get(5, TimeUnit.SECONDS);
        assertThat(streamable.sent).containsExactly(INITIALIZE);
        assertThat(sse.created.get(0).sent).containsExactly(INITIALIZE,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    }

    @Test
    void anAnswerThatOutrunsTheLegacyPostsAcceptanceIsNotLost() throws Exception {
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}";
        http.failFirst = McpTransportException.httpStatus(404, "Cannot POST /sse");
        sse.answerBeforeAccepting = answer;
        McpTransport transport = detecting.create(SPEC);
        transport.start(listener);

        transport.send(INITIALIZE).get(5, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(answer);
    }

    @Test
    void abandonReachesTheTransportCarryingTheMessage() throws Exception {
        http.holdFirst = true;
        McpTransport transport = detecting.create(SPEC);
        transport.start(listener);
        CompletableFuture<Void> pending = transport.send(INITIALIZE);

        transport.abandon(pending);

        ScriptedTransport streamable = http.created.get(0);
        assertThat(streamable.abandoned).containsExactly(streamable.sends.get(0));
        streamable.sends.get(0).completeExceptionally(new McpTransportException(Kind.CLOSED, "let go"));
        assertThat(failure(pending).kind()).isEqualTo(Kind.CLOSED);
    }

    @Test
    void sessionsDetectOnlyUrlsWithoutAConfiguredTransport() {
        http.failFirst = McpTransportException.httpStatus(404, "Cannot POST /sse");
        McpServerSpec configured = McpServerSpec.http("pinned", URI.create("http://127.0.0.1:1/mcp"), Map.of())
                .withTransport("http");
        try (McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(SPEC),
                McpServerSettings.of(configured)), List.of(http, sse), new dev.mcptasks.testkit.ManualClock(
                        java.time.Instant.parse("2026-01-01T00:00:00Z")), "test", memory)) {
            sessions.session("pinned").orElseThrow().connect();
            assertThat(sse.created).as("a configured http server is never detected").isEmpty();

            sessions.session("legacy").orElseThrow().connect();
            assertThat(sse.created).as("the refused first POST went to the legacy transport").hasSize(1);
            assertThat(sse.specs.get(0).transport()).isEqualTo("sse");
        }
    }

    @Test
    void withoutALegacyFactoryThereIsNoDetection() {
        http.failFirst = McpTransportException.httpStatus(404, "Cannot POST /sse");
        try (McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(SPEC)), List.of(http),
                new dev.mcptasks.testkit.ManualClock(java.time.Instant.parse("2026-01-01T00:00:00Z")), "test",
                memory)) {
            sessions.session("legacy").orElseThrow().connect();
            assertThat(http.created).hasSize(1);
            assertThat(memory.kindOf(SPEC)).isEmpty();
        }
    }
}
