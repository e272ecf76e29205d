package dev.mcptasks.testkit.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link McpTransport} must show against the {@link ScriptedPeer}; one subclass per transport
 * supplies the transport (already pointed at a running peer) and says how its peer is lost.
 */
public abstract class McpTransportContract {
    /** The inbound message bound the subclass must configure on the transports it creates. */
    protected static final int MAX_MESSAGE_BYTES = 64 * 1024;

    protected McpTransport transport;
    protected RecordingListener listener;

    /** A new, unstarted transport to a fresh scripted peer, bounded at {@link #MAX_MESSAGE_BYTES}. */
    protected abstract McpTransport newTransport();

    /** The script method that makes this transport lose its peer ({@link ScriptedPeer#EXIT} or DROP_SESSION). */
    protected abstract String lossMethod();

    /** The kind reported when the peer is lost. */
    protected abstract Kind lossKind();

    /** Whether the peer saw an orderly shutdown (stdin EOF, DELETE of the session) after {@code close()}. */
    protected abstract boolean peerSawGracefulClose() throws Exception;

    /** Whether notifications can travel in the same stream ahead of a response (false for JSON-only HTTP). */
    protected boolean inlineNotifications() {
        return true;
    }

    @BeforeEach
    void startTransport() {
        listener = new RecordingListener();
        transport = newTransport();
        transport.start(listener);
    }

    /** Stops the peer once the transport is closed (so a graceful close can still reach it). */
    protected void stopPeer() {}

    @AfterEach
    void closeTransport() {
        try {
            transport.close();
        } finally {
            stopPeer();
        }
    }

    /** A JSON-RPC request; {@code rawId} and {@code rawParams} are JSON text. */
    protected static String request(String rawId, String method, String rawParams) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + rawId + ",\"method\":\"" + method + "\",\"params\":" + rawParams + "}";
    }

    /** Waits for a future the transport returned. */
    protected static void await(CompletableFuture<Void> future) throws Exception {
        future.get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The typed failure of a send that must fail. */
    protected static McpTransportException failure(CompletableFuture<Void> future) {
        Throwable thrown = catchThrowable(() -> future.get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class);
        assertThat(thrown.getCause()).isInstanceOf(McpTransportException.class);
        return (McpTransportException) thrown.getCause();
    }

    @Test
    void requestGetsItsResponse() throws Exception {
        await(transport.send(request("1", "echo", "{\"x\":1,\"text\":\"h\\u00e9llo \u00e9t\u00e9\"}")));

        assertThat(listener.nextMessage())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"echo\":{\"x\":1,\"text\":\"h\\u00e9llo \u00e9t\u00e9\"}}}");
    }

    @Test
    void notificationArrivesBeforeTheResponse() throws Exception {
        assumeTrue(inlineNotifications(), "this peer mode cannot put a notification ahead of a response");

        await(transport.send(request("7", ScriptedPeer.NOTIFY_FIRST, "{}")));

        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.notification("7"));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("7", "{}"));
    }

    @Test
    void idsArePreservedAcrossManySends() throws Exception {
        List<String> ids = List.of("0", "\"abc\"", "42", "\"0\"", "-1");
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (String id : ids) {
            sends.add(transport.send(request(id, "echo", "{\"id\":" + id + "}")));
        }
        for (CompletableFuture<Void> send : sends) {
            await(send);
        }

        List<String> received = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            received.add(listener.nextMessage());
        }
        assertThat(received).containsExactlyInAnyOrderElementsOf(
                ids.stream().map(id -> ScriptedPeer.echo(id, "{\"id\":" + id + "}")).toList());
    }

    @Test
    void concurrentSendersDoNotInterleave() throws Exception {
        int threads = 4;
        int perThread = 10;
        ExecutorService senders = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<CompletableFuture<Void>>>> batches = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * 1000;
                batches.add(senders.submit(() -> {
                    List<CompletableFuture<Void>> sends = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        sends.add(transport.send(request(String.valueOf(base + i), "echo",
                                "{\"pad\":\"" + "p".repeat(2000) + "\"}")));
                    }
                    return sends;
                }));
            }
            for (Future<List<CompletableFuture<Void>>> batch : batches) {
                for (CompletableFuture<Void> send : batch.get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    await(send);
                }
            }
        } finally {
            senders.shutdownNow();
        }

        Set<String> received = new HashSet<>();
        for (int i = 0; i < threads * perThread; i++) {
            received.add(listener.nextMessage());
        }
        String intactTail = "p".repeat(2000) + "\"}}}";
        assertThat(received).hasSize(threads * perThread);
        assertThat(received.stream().filter(message -> !message.endsWith(intactTail)).count())
                .as("responses with a damaged body").isZero();
        assertThat(listener.errors()).isEmpty();
    }

    @Test
    void notificationSendCompletes() throws Exception {
        await(transport.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        await(transport.send(request("2", "echo", "null")));

        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("2", "null"));
    }

    @Test
    void oversizedMessageIsReportedAndTheTransportKeepsWorking() throws Exception {
        CompletableFuture<Void> big = transport.send(request("3", ScriptedPeer.BIG,
                "{\"bytes\":" + (MAX_MESSAGE_BYTES * 2) + "}"));
        big.exceptionally(e -> null).get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        McpTransportException error = listener.nextError();
        assertThat(error.kind()).isEqualTo(Kind.MESSAGE_TOO_LARGE);
        // its own kind with the cap and the size, so the session can fail the request once instead of retrying
        assertThat(error).isInstanceOfSatisfying(McpMessageTooLargeException.class, tooLarge -> {
            assertThat(tooLarge.cap()).isEqualTo(MAX_MESSAGE_BYTES);
            assertThat(tooLarge.size()).isGreaterThan(MAX_MESSAGE_BYTES);
            assertThat(tooLarge.retryable()).isFalse();
        });
        assertThat(error.getMessage()).contains(String.valueOf(MAX_MESSAGE_BYTES));
        await(transport.send(request("4", "echo", "{}")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("4", "{}"));
    }

    @Test
    void messageJustUnderTheBoundIsDelivered() throws Exception {
        int bytes = MAX_MESSAGE_BYTES - 200;
        await(transport.send(request("5", ScriptedPeer.BIG, "{\"bytes\":" + bytes + "}")));

        assertThat(listener.nextMessage()).hasSizeGreaterThan(bytes);
        assertThat(listener.errors()).isEmpty();
    }

    @Test
    void malformedFramingIsReportedAndTheTransportKeepsWorking() throws Exception {
        transport.send(request("6", ScriptedPeer.MALFORMED, "{}")).exceptionally(e -> null)
                .get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(listener.nextError().kind()).isEqualTo(Kind.MALFORMED);
        await(transport.send(request("8", "echo", "{}")));
        assertThat(listener.messages()).doesNotContain("this is not json");
        assertThat(listener.nextMessage()).isIn(ScriptedPeer.echo("6", "{}"), ScriptedPeer.echo("8", "{}"));
    }

    @Test
    void peerLossClosesTheTransportWithTheRightKind() throws Exception {
        transport.send(request("9", lossMethod(), "{}")).exceptionally(e -> null)
                .get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        // stdio learns of the loss by itself, HTTP on its next request: either way this probe cannot succeed silently
        CompletableFuture<Void> probe = transport.send(request("10", "echo", "{}"));

        McpTransportException cause = listener.closed().get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(cause.kind()).isEqualTo(lossKind());
        if (probe.isCompletedExceptionally()) {
            assertThat(failure(probe).kind()).isEqualTo(lossKind());
        }
        assertThat(failure(transport.send(request("11", "echo", "{}"))).kind()).isEqualTo(lossKind());
        transport.close();
        assertThat(listener.closedCalls()).isEqualTo(1);
    }

    @Test
    void closeIsGracefulAndIdempotent() throws Exception {
        await(transport.send(request("12", "echo", "{}")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("12", "{}"));

        transport.close();
        transport.close();

        assertThat(peerSawGracefulClose()).isTrue();
        assertThat(listener.closedCalls()).as("a local close is not reported as a loss").isZero();
    }

    @Test
    void closeFailsPendingSendsWithClosed() throws Exception {
        CompletableFuture<Void> pending = transport.send(request("13", ScriptedPeer.HANG, "{}"));

        transport.close();

        Throwable outcome = catchThrowable(() -> pending.get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        // stdio is done with a message once it is flushed; HTTP still waits for the answer and must fail it
        if (outcome != null) {
            assertThat(outcome.getCause()).isInstanceOf(McpTransportException.class);
            assertThat(((McpTransportException) outcome.getCause()).kind()).isEqualTo(Kind.CLOSED);
        }
    }

    @Test
    void abandoningAPendingSendLetsItGoAndTheTransportKeepsWorking() throws Exception {
        CompletableFuture<Void> pending = transport.send(request("15", ScriptedPeer.HANG, "{}"));

        transport.abandon(pending);

        Throwable outcome = catchThrowable(() -> pending.get(RecordingListener.AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        // stdio is done with a message once it is flushed; HTTP lets go of the POST (closes its connection)
        if (outcome != null) {
            assertThat(outcome.getCause()).isInstanceOf(McpTransportException.class);
            assertThat(((McpTransportException) outcome.getCause()).kind()).isEqualTo(Kind.CLOSED);
        }
        await(transport.send(request("16", "echo", "{}")));
        assertThat(listener.nextMessage()).isEqualTo(ScriptedPeer.echo("16", "{}"));
        assertThat(listener.closedCalls()).as("abandoning one request does not end the transport").isZero();
    }

    @Test
    void sendAfterCloseFailsWithClosed() {
        transport.close();

        McpTransportException failure = failure(transport.send(request("14", "echo", "{}")));
        assertThat(failure.kind()).isEqualTo(Kind.CLOSED);
        assertThat(failure.sent()).isFalse();
    }

    @Test
    void startingTwiceIsRejected() {
        assertThatThrownBy(() -> transport.start(new RecordingListener())).isInstanceOf(IllegalStateException.class);
    }
}
