package dev.mcptasks.http;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code send}: the POST and, when its SSE stream breaks after events with ids, up to {@link #MAX_RESUMES}
 * resumptions with {@code GET} + {@code Last-Event-ID} after the server's {@code retry:}. {@link #done()} completes when
 * the whole response was consumed.
 */
final class PostCall {
    private static final Logger log = LoggerFactory.getLogger(PostCall.class);
    static final int MAX_RESUMES = 5;
    private static final long DEFAULT_RETRY_MS = 1000;

    private final StreamableHttpMcpTransport transport;
    private final String message;
    /** Null for a request of the 2025-11-25 generation (or a notification). */
    private final ModernFrame frame;
    private final StreamState stream = new StreamState();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    /** Guarded by this: once set, no further exchange starts and {@link #aborted} decides how {@code done} ends. */
    private ResponseHandler current;
    private McpTransportException aborted;
    private volatile int resumes;

    PostCall(StreamableHttpMcpTransport transport, String message) {
        this.transport = transport;
        this.message = message;
        this.frame = ModernFrame.of(message);
    }

    CompletableFuture<Void> done() {
        return done;
    }

    void start() {
        run(transport.requests().post(message, frame));
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
            // certainly unsent only before the first exchange wrote anything (a resumption means the POST went out)
            boolean unsent = handler == null || (resumes == 0 && handler.stopBeforeWrite());
            aborted = unsent ? cause : cause.afterWriting();
        }
        if (handler == null) {
            done.completeExceptionally(aborted);
            return;
        }
        handler.abort(new ExchangeOutcome.Failed(cause));
        if (handler.outcome().isDone()) {
            // between a broken stream and its resumption: that exchange already gave its connection back
            done.completeExceptionally(abortCause());
        }
    }

    private synchronized McpTransportException abortCause() {
        return aborted;
    }

    private void run(io.netty.handler.codec.http.FullHttpRequest request) {
        ResponseHandler handler = transport.newHandler(stream, frame);
        synchronized (this) {
            if (aborted != null || done.isDone()) {
                request.release();
                if (aborted != null) {
                    done.completeExceptionally(aborted);
                }
                return;
            }
            current = handler;
        }
        handler.outcome().thenAccept(this::ended);
        transport.client().exchange(request, handler);
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
        if (outcome instanceof ExchangeOutcome.Completed) {
            McpTransportException tooLarge = stream.discardedOversized();
            if (tooLarge != null) {
                // the answer may have been the discarded message: this request fails with why, once
                done.completeExceptionally(tooLarge);
            } else {
                done.complete(null);
            }
        } else if (outcome instanceof ExchangeOutcome.Failed failed) {
            // this request's own failure first: a 404 means the server did not take it, while the other requests
            // the lost session ends may have been taken
            done.completeExceptionally(failed.cause());
            if (failed.cause().kind() == Kind.SESSION_LOST) {
                transport.sessionLost(failed.cause());
            }
        } else if (outcome instanceof ExchangeOutcome.Broken broken) {
            resumeOrFail(broken.reason());
        }
    }

    private void resumeOrFail(String reason) {
        String lastEventId = stream.lastEventId();
        if (lastEventId == null || resumes >= MAX_RESUMES || !transport.isOpen()) {
            // written and then broken: the server may have taken it (STREAM_BROKEN says so)
            done.completeExceptionally(new McpTransportException(Kind.STREAM_BROKEN, "the response stream of server '"
                    + transport.serverName() + "' broke (" + reason + ")"
                    + (lastEventId == null ? " and carried no event id to resume from" : " and could not be resumed")));
            return;
        }
        resumes++;
        Duration delay = Duration.ofMillis(stream.retryMillis(DEFAULT_RETRY_MS));
        log.debug("resuming the stream of server '{}' after event {} in {} (attempt {})", transport.serverName(),
                lastEventId, delay, resumes);
        transport.client().schedule(() -> run(transport.requests().get(lastEventId)), delay);
    }
}
