package dev.mcptasks.ports.trace;

/**
 * A W3C trace context as it travels on the wire and is stored with a task: the {@code traceparent} and, when there is
 * one, the {@code tracestate}. Values are only ever made by {@link #parse}, so a stored or forwarded context is always
 * well formed: a client's malformed header is dropped, never stored nor sent upstream.
 *
 * @param traceparent {@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>} (lower case; a later version's
 *     longer form is kept as sent)
 * @param tracestate the vendor list, or null; at most {@link #MAX_TRACESTATE} printable ASCII characters
 */
public record TraceContext(String traceparent, String tracestate) {
    /** The W3C limit a receiver must propagate at least; a longer {@code tracestate} is dropped. */
    public static final int MAX_TRACESTATE = 512;
    private static final int TRACEPARENT_LENGTH = 55;

    public TraceContext {
        if (!validTraceparent(traceparent)) {
            throw new IllegalArgumentException("not a W3C traceparent: " + traceparent);
        }
        if (tracestate != null && !validTracestate(tracestate)) {
            throw new IllegalArgumentException("not a W3C tracestate of at most " + MAX_TRACESTATE + " characters");
        }
    }

    /**
     * The context of a {@code traceparent} and {@code tracestate} as received, or null when the traceparent is absent
     * or malformed. An empty, oversized or malformed tracestate is dropped and the traceparent kept, as the W3C
     * specification asks.
     */
    public static TraceContext parse(String traceparent, String tracestate) {
        if (traceparent == null) {
            return null;
        }
        String parent = traceparent.trim();
        if (!validTraceparent(parent)) {
            return null;
        }
        String state = tracestate == null ? null : tracestate.trim();
        return new TraceContext(parent, state != null && !state.isEmpty() && validTracestate(state) ? state : null);
    }

    /** The 32 hex digits of the trace id. */
    public String traceId() {
        return traceparent.substring(3, 35);
    }

    /** The 16 hex digits of the parent span id. */
    public String spanId() {
        return traceparent.substring(36, 52);
    }

    private static boolean validTraceparent(String value) {
        if (value == null || value.length() < TRACEPARENT_LENGTH) {
            return false;
        }
        String version = value.substring(0, 2);
        if (!hex(version) || "ff".equals(version)) {
            return false;
        }
        // version 00 is exactly 55 characters; a later version may append fields after a dash
        if ("00".equals(version) ? value.length() != TRACEPARENT_LENGTH
                : value.length() > TRACEPARENT_LENGTH && value.charAt(TRACEPARENT_LENGTH) != '-') {
            return false;
        }
        if (value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return false;
        }
        String traceId = value.substring(3, 35);
        String spanId = value.substring(36, 52);
        return hex(traceId) && hex(spanId) && hex(value.substring(53, 55)) && !zeros(traceId) && !zeros(spanId);
    }

    private static boolean validTracestate(String value) {
        if (value.isEmpty() || value.length() > MAX_TRACESTATE) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static boolean hex(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String text) {
        return text.chars().allMatch(c -> c == '0');
    }

    @Override
    public String toString() {
        return "TraceContext[" + traceparent + (tracestate == null ? "" : ", " + tracestate) + "]";
    }

}
