package dev.mcptasks.http;

/**
 * What one logical SSE stream remembers across the connections that carry it (the first response and any
 * {@code Last-Event-ID} resumptions): the last event id, the server's {@code retry:} and whether a message was
 * discarded as oversized.
 */
final class StreamState {
    private volatile String lastEventId;
    private volatile long retryMillis = -1;
    private volatile boolean discardedOversized;

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

    void markOversized() {
        discardedOversized = true;
    }

    boolean discardedOversized() {
        return discardedOversized;
    }
}
