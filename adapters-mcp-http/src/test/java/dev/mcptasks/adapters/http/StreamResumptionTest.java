package dev.mcptasks.adapters.http;

import static dev.mcptasks.adapters.http.ResumableSsePeer.message;
import static dev.mcptasks.adapters.http.ResumableSsePeer.priming;
import static dev.mcptasks.adapters.http.ResumableSsePeer.sse;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.eventually;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.http.ResumableSsePeer.End;
import dev.mcptasks.adapters.http.ResumableSsePeer.Reply;
import dev.mcptasks.adapters.http.ResumableSsePeer.Seen;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Resuming broken SSE streams (SEP-1699): a POST stream that ends or breaks before its response is resumed with
 * {@code GET} + {@code Last-Event-ID} after the server's {@code retry:}, a bounded number of times, and what cannot be
 * resumed fails its request as possibly sent.
 */
class StreamResumptionTest {
    private static final String VERSION = "2025-11-25";
    private static final String NOTIFICATION = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
            + "\"params\":{\"progressToken\":1,\"progress\":1}}";

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

    /** Starts the peer with {@code script} for POSTs and resumption GETs; the listening GET gets 405. */
    private void start(Duration readTimeout, Function<Seen, Reply> script) throws Exception {
        peer = new ResumableSsePeer();
        peer.script = seen -> seen.method().equals("GET") && seen.lastEventId() == null
                ? ResumableSsePeer.json(405, "") : script.apply(seen);
        transport = new HttpTransportFactory().create(new McpServerSpec("peer", null, null, null, null, peer.url(),
                Map.of(), null, readTimeout, 0));
        transport.start(listener);
    }

    private static String request(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"work\"}}";
    }

    private static String result(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[]}}";
    }

    @Test
    void aPostStreamClosedAfterItsPrimingEventIsResumedOnAGetThatCarriesTheResponse() throws Exception {
        start(null, seen -> seen.method().equals("POST")
                ? sse(End.CLEAN, priming("p1", 10))
                : sse(End.HOLD, priming("g1", 10), message("g2", result(7))));
        transport.protocolVersionNegotiated(VERSION);

        transport.send(request(7)).get(15, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(result(7));
        assertThat(peer.resumptions()).hasSize(1);
        Seen resume = peer.resumptions().get(0);
        assertThat(resume.lastEventId()).isEqualTo("p1");
        assertThat(resume.headers().get(SessionHeaders.SESSION_ID)).isEqualTo(ResumableSsePeer.SESSION);
        assertThat(resume.headers().get(SessionHeaders.PROTOCOL_VERSION)).isEqualTo(VERSION);
        assertThat(resume.headers().get("Accept")).isEqualTo("text/event-stream");
        eventually(() -> peer.heldOpen.get() == 0, "the resumed GET, held open by the server, is let go");
        assertThat(peer.heldEver.get()).isEqualTo(1);
    }

    @Test
    void aStreamBrokenTwiceIsResumedFromTheLatestEventId() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        start(null, seen -> {
            if (seen.method().equals("POST")) {
                return sse(End.CLEAN, priming("p1", 10));
            }
            return gets.incrementAndGet() == 1
                    ? sse(End.CUT, priming("p2", 10))
                    : sse(End.CLEAN, message("p3", result(3)));
        });

        transport.send(request(3)).get(15, TimeUnit.SECONDS);

        assertThat(listener.nextMessage()).isEqualTo(result(3));
        assertThat(peer.resumptions()).extracting(Seen::lastEventId).containsExactly("p1", "p2");
        assertThat(listener.messages()).isEmpty();
    }

    @Test
    void theWaitBeforeEachResumptionIsTheServersLatestRetry() throws Exception {
        // never before the retry; well before the 1 s default, so the server's value was taken (the exact bounds of
        // the conformance suite are SseRetryScenarioTest's)
        AtomicInteger gets = new AtomicInteger();
        start(null, seen -> {
            if (seen.method().equals("POST")) {
                return sse(End.CLEAN, priming("p1", 150));
            }
            return gets.incrementAndGet() == 1 ? sse(End.CUT, priming("p2", 250))
                    : sse(End.CLEAN, message("p3", result(1)));
        });

        transport.send(request(1)).get(15, TimeUnit.SECONDS);

        List<Seen> resumptions = peer.resumptions();
        assertThat(resumptions).hasSize(2);
        assertThat(TimeUnit.NANOSECONDS.toMillis(resumptions.get(0).atNanos() - peer.streamEnds.get(0)))
                .isBetween(150L, 900L);
        assertThat(TimeUnit.NANOSECONDS.toMillis(resumptions.get(1).atNanos() - peer.streamEnds.get(1)))
                .isBetween(250L, 900L);
    }

    @Test
    void aStreamWithoutEventIdsCannotBeResumedAndFailsAsPossiblySent() throws Exception {
        for (End end : new End[] {End.CLEAN, End.CUT}) {
            start(null, seen -> sse(end, message(null, NOTIFICATION)));

            McpTransportException failure = failure(transport.send(request(1)));

            assertThat(failure.kind()).as(end.name()).isEqualTo(Kind.STREAM_BROKEN);
            assertThat(failure.sent()).isTrue();
            assertThat(failure).hasMessageContaining("no event id");
            assertThat(peer.resumptions()).isEmpty();
            assertThat(listener.nextMessage()).isEqualTo(NOTIFICATION);
            tearDown();
        }
        transport = null;
        peer = null;
    }

    @Test
    void resumptionGivesUpAfterThreeAttemptsWithoutProgress() throws Exception {
        AtomicInteger ids = new AtomicInteger();
        start(null, seen -> sse(End.CLEAN, priming("e" + ids.incrementAndGet(), 5)));

        McpTransportException failure = failure(transport.send(request(1)));

        assertThat(failure.kind()).isEqualTo(Kind.STREAM_BROKEN);
        assertThat(failure.sent()).isTrue();
        assertThat(failure).hasMessageContaining("3 attempts");
        assertThat(peer.resumptions()).extracting(Seen::lastEventId).containsExactly("e1", "e2", "e3");
    }

    @Test
    void attemptsCountOnlyWhileNothingNewArrives() throws Exception {
        // a long call on a server that closes its stream now and then: every reconnect brings a progress message
        AtomicInteger gets = new AtomicInteger();
        start(null, seen -> {
            if (seen.method().equals("POST")) {
                return sse(End.CLEAN, priming("p0", 5));
            }
            int n = gets.incrementAndGet();
            return n < 5 ? sse(End.CLEAN, message("p" + n, NOTIFICATION.replace("\"progress\":1", "\"progress\":" + n)))
                    : sse(End.CLEAN, message("p" + n, result(1)));
        });

        transport.send(request(1)).get(15, TimeUnit.SECONDS);

        assertThat(peer.resumptions()).hasSize(5);
        List<String> got = new ArrayList<>();
        listener.messages().drainTo(got);
        assertThat(got).hasSize(5).last().isEqualTo(result(1));
    }

    @Test
    void anAnswerArrivingOnAnotherStreamDuringTheWaitEndsTheCallWithoutResuming() throws Exception {
        peer = new ResumableSsePeer();
        peer.script = seen -> seen.method().equals("POST")
                ? sse(End.CLEAN, priming("p1", 20_000))
                : sse(End.HOLD, priming("g1", 10), message("g2", result(1)));
        transport = new HttpTransportFactory().create(McpServerSpec.http("peer", peer.url(), Map.of()));
        transport.start(listener);
        CompletableFuture<Void> call = transport.send(request(1));
        eventually(() -> peer.streamEnds.size() == 1, "the POST stream ended before its answer");

        transport.protocolVersionNegotiated(VERSION);

        call.get(10, TimeUnit.SECONDS);
        assertThat(listener.nextMessage()).isEqualTo(result(1));
        assertThat(peer.resumptions()).isEmpty();
    }

    @Test
    void a20260728StreamIsNotResumed() throws Exception {
        start(null, seen -> sse(End.CLEAN, priming("p1", 5)));

        McpTransportException failure = failure(transport.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"work\",\"_meta\":{\"" + Frame2026.VERSION_KEY + "\":\"2026-07-28\"}}}"));

        assertThat(failure.kind()).isEqualTo(Kind.STREAM_BROKEN);
        assertThat(failure.sent()).isTrue();
        assertThat(failure).hasMessageContaining("2026-07-28");
        assertThat(peer.resumptions()).isEmpty();
    }

    @Test
    void aResumptionRefusedWith405FailsAsPossiblySent() throws Exception {
        start(null, seen -> seen.method().equals("POST")
                ? sse(End.CUT, priming("p1", 5)) : ResumableSsePeer.json(405, ""));

        McpTransportException failure = failure(transport.send(request(1)));

        assertThat(failure.kind()).isEqualTo(Kind.STREAM_BROKEN);
        assertThat(failure.sent()).isTrue();
        assertThat(failure).hasMessageContaining("405");
        assertThat(peer.resumptions()).hasSize(1);
        assertThat(listener.closedCalls()).isZero();
    }

    @Test
    void aResumptionAnswered404ForTheSessionFailsAsPossiblySentAndLosesTheSession() throws Exception {
        start(null, seen -> seen.method().equals("POST")
                ? sse(End.CLEAN, priming("p1", 5)) : ResumableSsePeer.json(404, ""));

        McpTransportException failure = failure(transport.send(request(1)));

        assertThat(failure.kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(failure.sent()).as("the POST went out before its stream broke").isTrue();
        assertThat(listener.closed().get(15, TimeUnit.SECONDS).kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void replayedEventsAndRepeatedAnswersAreDeliveredOnce() throws Exception {
        start(null, seen -> seen.method().equals("POST")
                ? sse(End.CUT, priming("p1", 5), message("p2", NOTIFICATION))
                // server-everything replays what the client saw, and a second copy of the answer under another id
                : sse(End.CLEAN, message("p2", NOTIFICATION), message("p3", result(1)), message("x9", result(1))));

        transport.send(request(1)).get(15, TimeUnit.SECONDS);

        List<String> got = new ArrayList<>();
        listener.messages().drainTo(got);
        assertThat(got).containsExactly(NOTIFICATION, result(1));
    }

    @Test
    void theListeningStreamIsResumedFromItsLastEventId() throws Exception {
        String second = NOTIFICATION.replace("\"progress\":1", "\"progress\":2");
        AtomicInteger gets = new AtomicInteger();
        peer = new ResumableSsePeer();
        peer.script = seen -> gets.incrementAndGet() == 1
                ? sse(End.CUT, priming("g1", 10), message("g2", NOTIFICATION))
                : sse(End.HOLD, message("g2", NOTIFICATION), message("g3", second));
        transport = new HttpTransportFactory().create(McpServerSpec.http("peer", peer.url(), Map.of()));
        transport.start(listener);

        transport.protocolVersionNegotiated(VERSION);

        assertThat(listener.nextMessage()).isEqualTo(NOTIFICATION);
        assertThat(listener.nextMessage()).isEqualTo(second);
        assertThat(peer.requests).extracting(Seen::lastEventId).containsExactly(null, "g2");
        assertThat(listener.messages()).isEmpty();
    }

    @Test
    void abandoningARequestWhoseStreamIsBeingResumedLetsItsConnectionGo() throws Exception {
        start(null, seen -> seen.method().equals("POST")
                ? sse(End.CLEAN, priming("p1", 5)) : sse(End.HOLD, priming("p2", 5)));
        CompletableFuture<Void> call = transport.send(request(1));
        eventually(() -> peer.heldOpen.get() == 1, "the resumed stream is held open");

        transport.abandon(call);

        McpTransportException abandoned = failure(call);
        assertThat(abandoned.kind()).isEqualTo(Kind.CLOSED);
        assertThat(abandoned.sent()).isTrue();
        eventually(() -> peer.heldOpen.get() == 0, "the resumed stream's connection is closed");
        assertThat(peer.resumptions()).hasSize(1);
    }

    @Test
    void aRetryLongerThanTheReadTimeoutFailsAtOnceAsATimeout() throws Exception {
        start(Duration.ofMillis(500), seen -> sse(End.CLEAN, priming("p1", 60_000)));

        McpTransportException failure = failure(transport.send(request(1)));

        assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(failure.sent()).isTrue();
        assertThat(peer.resumptions()).isEmpty();
    }

    @Test
    void theReadTimeoutStillBoundsASilentResumedStream() throws Exception {
        start(Duration.ofMillis(400), seen -> seen.method().equals("POST")
                ? sse(End.CLEAN, priming("p1", 5)) : sse(End.HOLD));

        McpTransportException failure = failure(transport.send(request(1)));

        assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(failure.sent()).isTrue();
        assertThat(peer.resumptions()).hasSize(1);
        eventually(() -> peer.heldOpen.get() == 0, "the silent stream's connection is closed");
    }
}
