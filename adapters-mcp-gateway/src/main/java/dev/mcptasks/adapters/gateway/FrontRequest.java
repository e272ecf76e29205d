package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.trace.TraceContext;
import java.util.Objects;

/**
 * One message from an authenticated caller.
 *
 * @param principal who sent it (from the bearer token, or the stdio principal); tasks are scoped to it
 * @param session the 2025-11-25 session it belongs to (created by the transport for {@code initialize}), or null
 *     for a stateless 2026-07-28 request
 * @param message the parsed JSON-RPC object
 * @param trace the W3C trace context of the HTTP request's {@code traceparent}/{@code tracestate} headers (well
 *     formed, else null); null over stdio
 * @param stream where the request sends messages ahead of its answer (a 2026 {@code subscriptions/listen});
 *     {@link RequestStream#NONE} when its transport cannot
 */
record FrontRequest(String principal, FrontSession session, ObjectNode message, TraceContext trace,
        RequestStream stream) {
    FrontRequest {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(message, "message");
        stream = stream == null ? RequestStream.NONE : stream;
    }

    /** A request that can send nothing ahead of its answer. */
    FrontRequest(String principal, FrontSession session, ObjectNode message, TraceContext trace) {
        this(principal, session, message, trace, RequestStream.NONE);
    }

    /** A request that came with no trace headers. */
    FrontRequest(String principal, FrontSession session, ObjectNode message) {
        this(principal, session, message, null);
    }
}
