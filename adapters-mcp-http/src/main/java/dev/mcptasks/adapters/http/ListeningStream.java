package dev.mcptasks.adapters.http;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional {@code GET} stream on which a server sends requests and notifications unrelated to a POST. It reopens
 * after every end, resuming from the last event id after the server's {@code retry:} (the default and cap of
 * {@link StreamState#reconnectDelayMillis()}), and backs off after failures, until the transport ends. A 405 means
 * the server offers none. A challenge is answered as for any request (the stream opens again with the authorizer's
 * header); a refusal, or the limit of challenges, stops the stream and reports {@code AUTH_REQUIRED} to the
 * listener as a survivable error (the POSTs meet the same refusal and fail with it).
 */
final class ListeningStream {
    private static final Logger log = LoggerFactory.getLogger(ListeningStream.class);
    private static final long MAX_BACKOFF_MS = 30_000;

    private final StreamableHttpMcpTransport transport;
    private final StreamState stream = new StreamState();
    private volatile boolean stopped;
    private volatile ResponseHandler current;
    private int failures;

    ListeningStream(StreamableHttpMcpTransport transport) {
        this.transport = transport;
    }

    void open() {
        open(null, 0);
    }

    /** Opens the stream with {@code retry} as its header (null: the authorizer's current one). */
    private void open(String retry, int challenges) {
        if (stopped || !transport.isOpen()) {
            return;
        }
        ResponseHandler handler = transport.newHandler(stream);
        current = handler;
        FullHttpRequest request = transport.requests().get(stream.lastEventId(), retry);
        String sent = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        handler.outcome().thenAccept(outcome -> {
            if (outcome instanceof ExchangeOutcome.Challenged challenge) {
                challenged(challenge, sent, challenges);
            } else {
                ended(outcome);
            }
        });
        transport.client().exchangeUnbounded(request, handler);
        if (stopped) {
            handler.abort(new ExchangeOutcome.Failed(closed()));
        }
    }

    /** Composed on the authorizer's answer: nothing waits for it, and a stop meanwhile wins. */
    private void challenged(ExchangeOutcome.Challenged challenge, String sent, int challenges) {
        if (stopped || !transport.isOpen()) {
            return;
        }
        transport.auth().answer(challenges, challenge.status(), challenge.wwwAuthenticate(), sent)
                .whenComplete((retry, error) -> {
                    if (stopped || !transport.isOpen()) {
                        return;
                    }
                    if (error != null) {
                        McpTransportException refused = transport.auth().failure(error);
                        stopped = true;
                        log.info("GET stream of server '{}' stopped: {}", transport.serverName(),
                                refused.getMessage());
                        transport.report(refused);
                    } else {
                        open(retry, challenges + 1);
                    }
                });
    }

    void stop() {
        stopped = true;
        ResponseHandler handler = current;
        if (handler != null) {
            handler.abort(new ExchangeOutcome.Failed(closed()));
        }
    }

    private void ended(ExchangeOutcome outcome) {
        if (stopped || !transport.isOpen()) {
            return;
        }
        long delay;
        if (outcome instanceof ExchangeOutcome.Failed failed) {
            McpTransportException cause = failed.cause();
            if (cause.kind() == Kind.SESSION_LOST) {
                transport.sessionLost(cause);
                return;
            }
            if (cause.httpStatus() == 405) {
                log.debug("server '{}' offers no GET stream (405)", transport.serverName());
                stopped = true;
                return;
            }
            failures++;
            delay = Math.min(MAX_BACKOFF_MS, StreamState.DEFAULT_RETRY_MS << Math.min(failures - 1, 5));
            log.debug("GET stream of server '{}' failed ({}); retrying in {} ms", transport.serverName(),
                    cause.getMessage(), delay);
        } else {
            failures = 0;
            delay = stream.reconnectDelayMillis();
            log.debug("GET stream of server '{}' ended; reopening in {} ms", transport.serverName(), delay);
        }
        transport.client().schedule(this::open, Duration.ofMillis(delay));
    }

    private McpTransportException closed() {
        return new McpTransportException(Kind.CLOSED, "GET stream of server '" + transport.serverName() + "' closed");
    }
}
