package dev.mcptasks.http;

import dev.mcptasks.ports.transport.McpTransportException;

/**
 * What one logical SSE stream remembers across the connections that carry it (the first response and any
 * {@code Last-Event-ID} resumptions): the last event id, the server's {@code retry:} and whether a message was
 * discarded as oversized.
 */
final class StreamState {
    private volatile String lastEventId;
    private volatile long retryMillis = -1;
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

    /** The server's retry delay, or {@code fallback} when it sent none. */
    long retryMillis(long fallback) {
        return retryMillis >= 0 ? retryMillis : fallback;
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
