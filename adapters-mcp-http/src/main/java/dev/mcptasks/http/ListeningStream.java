package dev.mcptasks.http;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional {@code GET} stream on which a server sends requests and notifications unrelated to a POST. It reopens
 * after every end, resuming from the last event id after the server's {@code retry:} (the default and cap of
 * {@link StreamState#reconnectDelayMillis()}), and backs off after failures, until the transport ends. A 405 means
 * the server offers none.
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
        if (stopped || !transport.isOpen()) {
            return;
        }
        ResponseHandler handler = transport.newHandler(stream);
        current = handler;
        handler.outcome().thenAccept(this::ended);
        transport.client().exchangeUnbounded(transport.requests().get(stream.lastEventId()), handler);
        if (stopped) {
            handler.abort(new ExchangeOutcome.Failed(closed()));
        }
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
