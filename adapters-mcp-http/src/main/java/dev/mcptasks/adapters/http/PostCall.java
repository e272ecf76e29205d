package dev.mcptasks.adapters.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.adapters.httpsupport.UnsentRequests;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code send}: the POST and, when its SSE stream ends or breaks before the answer to its request came (SEP-1699:
 * a server may close a stream at any time), resumptions with {@code GET} + {@code Last-Event-ID} after the server's
 * {@code retry:} (default {@value StreamState#DEFAULT_RETRY_MS} ms, at most {@value StreamState#MAX_RETRY_MS} ms),
 * until the answer arrives on any stream. A stream without an event id cannot be resumed, nor can a 2026-07-28 one;
 * {@value #MAX_ATTEMPTS} resumptions in a row that bring no new message give up, and so does a resumption the server
 * refuses. Each of these fails the request as possibly sent ({@link McpTransportException#sent()}): the POST went out.
 * The read timeout bounds the server's silence on the whole stream, waits between connections included.
 * {@link #done()} completes when the response was consumed (or the answer arrived on a resumed stream).
 *
 * <p>Each HTTP request of the call (the POST, each resumption) that the server challenges (401, 403
 * {@code insufficient_scope}) is sent again, unchanged but for the {@code Authorization} header the authorizer's
 * answer named, once that answer completes; a refusal, or a request challenged more than
 * {@link dev.mcptasks.ports.auth.HttpAuthorizer#MAX_CHALLENGES} times, fails the call {@code AUTH_REQUIRED}: not
 * sent when it was the POST (the server refused before acting), possibly sent when it was a resumption.
 */
final class PostCall {
    private static final Logger log = LoggerFactory.getLogger(PostCall.class);
    static final int MAX_ATTEMPTS = 3;

    private final StreamableHttpMcpTransport transport;
    private final String message;
    /** Null for a request of the 2025-11-25 generation (or a notification). */
    private final Frame2026 frame;
    /** The W3C trace headers the request's {@code _meta} carries, or null. */
    private final TraceHeaders trace;
    /** The JSON-RPC id of the request, or null when the message is not a request (no answer is owed). */
    private final String requestId;
    private final StreamState stream = new StreamState();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean answered = new AtomicBoolean();
    /** Guarded by this: once set, no further exchange starts and {@link #aborted} decides how {@code done} ends. */
    private ResponseHandler current;
    private McpTransportException aborted;
    /** Guarded by this: what {@link #current} sent, to send it again after a challenge, and how. */
    private Attempt attempt;
    /** Guarded by this: the {@code Authorization} header {@link #current} carried, or null. */
    private String sentAuthorization;
    /** Guarded by this: the challenges the current HTTP request answered (a new request starts at 0). */
    private int challenges;
    private volatile int resumes;
    // only touched where an exchange ended, and exchanges of one call never overlap
    private int attemptsWithoutProgress;
    private long deliveredAtLastResume;

    PostCall(StreamableHttpMcpTransport transport, String message) {
        this.transport = transport;
        this.message = message;
        JsonNode parsed = Frame2026.parse(message);
        this.frame = Frame2026.of(parsed);
        this.trace = TraceHeaders.of(parsed);
        this.requestId = JsonRpcIds.requestId(message);
    }

    CompletableFuture<Void> done() {
        return done;
    }

    String requestId() {
        return requestId;
    }

    /**
     * One HTTP request of the call: builds it with the {@code Authorization} header to send (null: the authorizer's
     * current one), and bounds the server's silence on its answer.
     */
    private record Attempt(Function<String, FullHttpRequest> build, Duration silence) {}

    void start() {
        run(new Attempt(retry -> transport.requests().post(message, frame, trace, retry), transport.readTimeout()), null,
                true);
    }

    /**
     * The answer to this request is about to reach the listener (on any stream). A resumed GET is the server's
     * stream, which may stay open after the answer: it is let go now. The POST's own stream ends by itself (the
     * server SHOULD end it after the answer), which keeps its connection reusable. Between an ended stream and its
     * resumption (the answer came on another stream) the call ends without resuming. False when the answer had
     * arrived before.
     */
    boolean answered() {
        if (!answered.compareAndSet(false, true)) {
            return false;
        }
        ResponseHandler handler;
        synchronized (this) {
            handler = current;
        }
        if (resumes == 0 || handler == null) {
            return true;
        }
        // both run on the event loop after the current read, so the answer reaches the listener before done
        if (handler.outcome().isDone()) {
            transport.client().schedule(this::finishUnlessAborted, Duration.ZERO);
        } else {
            handler.abort(new ExchangeOutcome.Completed(200));
        }
        return true;
    }

    private void finishUnlessAborted() {
        McpTransportException abortedBy = abortCause();
        if (abortedBy != null) {
            done.completeExceptionally(abortedBy);
        } else {
            finish();
        }
    }

    /**
     * Ends the call from outside (local close, lost session, the caller gave up on the answer): cuts its connection,
     * and completes {@link #done()} with {@code cause} only once that connection is closed (or was never used), so
     * whoever waits for {@code done} knows the transport holds nothing more for this message. A call whose request
     * may already have been written fails with {@link McpTransportException#afterWriting()}.
     */
    void abort(McpTransportException cause) {
        ResponseHandler handler;
        synchronized (this) {
            if (aborted != null || done.isDone()) {
                return;
            }
            handler = current;
            // certainly unsent only before the first exchange wrote anything (a resumption means the POST went out),
            // or while the POST's only answer so far is a challenge (the server refused it before acting)
            boolean unsent = handler == null || (resumes == 0 && (handler.stopBeforeWrite()
                    || handler.outcome().getNow(null) instanceof ExchangeOutcome.Challenged));
            aborted = unsent ? cause : cause.afterWriting();
        }
        if (handler == null) {
            done.completeExceptionally(aborted);
            return;
        }
        handler.abort(new ExchangeOutcome.Failed(cause));
        if (handler.outcome().isDone()) {
            // between an ended stream and its resumption: that exchange already gave its connection back, and the
            // scheduled resumption sees the abort and starts nothing
            done.completeExceptionally(abortCause());
        }
    }

    private synchronized McpTransportException abortCause() {
        return aborted;
    }

    /** Sends {@code next} (with {@code retry} as its header when not null); {@code fresh} for a new HTTP request. */
    private void run(Attempt next, String retry, boolean fresh) {
        FullHttpRequest request = next.build().apply(retry);
        ResponseHandler handler = transport.newHandler(stream, resumes == 0 ? frame : null);
        synchronized (this) {
            if (UnsentRequests.dropIfEnded(done, aborted, request)) {
                return;
            }
            current = handler;
            attempt = next;
            sentAuthorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
            if (fresh) {
                challenges = 0;
            }
        }
        handler.outcome().thenAccept(this::ended);
        transport.client().exchange(request, handler, next.silence());
    }

    /**
     * The server refused the current HTTP request for want of authorization. The authorizer's answer may take
     * network round trips: the request goes again from whichever thread completes it, never waited for here.
     */
    private void challenged(ExchangeOutcome.Challenged challenge) {
        Attempt refused;
        String sent;
        int answeredBefore;
        synchronized (this) {
            refused = attempt;
            sent = sentAuthorization;
            answeredBefore = challenges++;
        }
        transport.auth().answer(answeredBefore, challenge.status(), challenge.wwwAuthenticate(), sent,
                retry -> run(refused, retry, false), this::failed);
    }

    private void ended(ExchangeOutcome outcome) {
        if (done.isDone()) {
            return;
        }
        McpTransportException abortedBy = abortCause();
        if (abortedBy != null) {
            done.completeExceptionally(abortedBy);
            return;
        }
        if (outcome instanceof ExchangeOutcome.Failed failed) {
            failed(failed.cause());
        } else if (answered.get() || stream.discardedOversized() != null
                || (outcome instanceof ExchangeOutcome.Completed && !owesAnswer())) {
            // a discarded oversized message may have been the answer: a replay would only discard it again
            finish();
        } else if (outcome instanceof ExchangeOutcome.Challenged challenge) {
            challenged(challenge);
        } else if (outcome instanceof ExchangeOutcome.Broken broken) {
            resumeOrFail("broke (" + broken.reason() + ")");
        } else {
            resumeOrFail("ended before the response");
        }
    }

    /** Whether a clean end still owes this request its answer: only an event stream can end without it. */
    private boolean owesAnswer() {
        return requestId != null && stream.eventStream();
    }

    private void finish() {
        McpTransportException tooLarge = stream.discardedOversized();
        if (tooLarge != null) {
            // the answer may have been the discarded message: this request fails with why, once
            done.completeExceptionally(tooLarge);
        } else {
            done.complete(null);
        }
    }

    private void failed(McpTransportException cause) {
        if (resumes == 0) {
            // this request's own failure first: a 404 means the server did not take it, while the other requests
            // the lost session ends may have been taken
            done.completeExceptionally(cause);
        } else if (cause.kind() == Kind.CONNECT_FAILED) {
            // the resumption GET never left; the POST did: try again while attempts remain
            resumeOrFail("could not be reconnected (" + cause.getMessage() + ")");
            return;
        } else if (cause.kind() == Kind.HTTP_STATUS) {
            // 404 without a session, 405 (no GET), or anything else: this stream cannot be resumed
            done.completeExceptionally(new McpTransportException(Kind.STREAM_BROKEN, "the response stream of server '"
                    + transport.serverName() + "' could not be resumed: " + cause.getMessage(), cause));
        } else {
            done.completeExceptionally(cause.sent() ? cause : cause.afterWriting());
        }
        if (cause.kind() == Kind.SESSION_LOST) {
            transport.sessionLost(cause);
        }
    }

    private void resumeOrFail(String what) {
        String lastEventId = stream.lastEventId();
        String prefix = "the response stream of server '" + transport.serverName() + "' " + what;
        if (frame != null) {
            fail(Kind.STREAM_BROKEN, prefix + " and a 2026-07-28 stream cannot be resumed");
            return;
        }
        if (lastEventId == null) {
            fail(Kind.STREAM_BROKEN, prefix + " and carried no event id to resume from");
            return;
        }
        if (!transport.isOpen()) {
            fail(Kind.STREAM_BROKEN, prefix + " and the transport has ended");
            return;
        }
        long delivered = stream.deliveredCount();
        if (delivered > deliveredAtLastResume) {
            // a stream the server closes now and then while a long call reports progress is alive
            deliveredAtLastResume = delivered;
            attemptsWithoutProgress = 0;
        }
        if (attemptsWithoutProgress >= MAX_ATTEMPTS) {
            fail(Kind.STREAM_BROKEN, prefix + " and " + MAX_ATTEMPTS + " attempts to resume it brought nothing new");
            return;
        }
        long delay = stream.reconnectDelayMillis();
        if (stream.silenceMillis() + delay >= transport.readTimeout().toMillis()) {
            fail(Kind.TIMEOUT, prefix + " and waiting " + delay + " ms to resume it would exceed the read timeout of "
                    + transport.readTimeout().toMillis() + " ms");
            return;
        }
        attemptsWithoutProgress++;
        resumes++;
        log.debug("resuming the stream of server '{}' after event {} in {} ms (attempt {})", transport.serverName(),
                lastEventId, delay, attemptsWithoutProgress);
        transport.client().schedule(() -> resume(lastEventId), Duration.ofMillis(delay));
    }

    /** After the wait: the answer may have come on another stream meanwhile; else the GET, within the silence left. */
    private void resume(String lastEventId) {
        if (answered.get()) {
            finishUnlessAborted();
            return;
        }
        long silenceLeft = transport.readTimeout().toMillis() - stream.silenceMillis();
        if (silenceLeft <= 0 && abortCause() == null) {
            fail(Kind.TIMEOUT, "server '" + transport.serverName() + "' sent nothing within the read timeout");
            return;
        }
        run(new Attempt(retry -> transport.requests().get(lastEventId, retry),
                Duration.ofMillis(Math.max(1, silenceLeft))), null, true);
    }

    /** The POST went out: a failure after it says the server may have taken the request (both kinds used here do). */
    private void fail(Kind kind, String why) {
        done.completeExceptionally(new McpTransportException(kind, why));
    }
}
