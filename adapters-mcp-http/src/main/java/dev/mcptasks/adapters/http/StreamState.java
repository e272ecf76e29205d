package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.SseParser;
import dev.mcptasks.ports.transport.McpTransportException;

/**
 * What one logical SSE stream remembers across the connections that carry it (the first response and any
 * {@code Last-Event-ID} resumptions): the last event id, the server's {@code retry:}, whether it was an event stream
 * at all, how many new messages it delivered, when the server was last heard on it, and whether a message was
 * discarded as oversized. Written on the event loop of the connection carrying it (one at a time); read anywhere.
 */
final class StreamState {
    /** The wait before reconnecting when the server sent no {@code retry:} (the TS SDK's initial delay). */
    static final long DEFAULT_RETRY_MS = 1000;
    /** The longest wait a {@code retry:} can ask for; anything longer is taken as this (the TS SDK's cap). */
    static final long MAX_RETRY_MS = 30_000;

    private volatile String lastEventId;
    private volatile long retryMillis = -1;
    private volatile boolean eventStream;
    private volatile long delivered;
    private volatile long heardNanos = System.nanoTime();
    private volatile McpTransportException discardedOversized;

    void update(SseParser parser) {
        if (parser.lastEventId() != null) {
            lastEventId = parser.lastEventId();
        }
        if (parser.retryMillis() >= 0) {
            retryMillis = parser.retryMillis();
        }
    }

    String lastEventId() {
        return lastEventId;
    }

    /** How long to wait before reconnecting: the server's {@code retry:}, else the default, at most the cap. */
    long reconnectDelayMillis() {
        return retryMillis >= 0 ? Math.min(MAX_RETRY_MS, retryMillis) : DEFAULT_RETRY_MS;
    }

    /** The server answered with {@code text/event-stream} (an SSE answer may end before the response it owes). */
    void markEventStream() {
        eventStream = true;
    }

    boolean eventStream() {
        return eventStream;
    }

    /** A message not seen before reached the listener. */
    void delivered() {
        delivered++;
    }

    /** How many new messages this stream delivered so far. */
    long deliveredCount() {
        return delivered;
    }

    /** Bytes arrived from the server. */
    void heard() {
        heardNanos = System.nanoTime();
    }

    /** How long the server has been silent on this stream, across its connections and the waits between them. */
    long silenceMillis() {
        return (System.nanoTime() - heardNanos) / 1_000_000;
    }

    /** Remembers the first message discarded as oversized. */
    void markOversized(McpTransportException tooLarge) {
        if (discardedOversized == null) {
            discardedOversized = tooLarge;
        }
    }

    /** The first message discarded as oversized, or null. */
    McpTransportException discardedOversized() {
        return discardedOversized;
    }
}
