package dev.mcptasks.gateway;

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
 */
record FrontRequest(String principal, FrontSession session, ObjectNode message, TraceContext trace) {
    FrontRequest {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(message, "message");
    }

    /** A request that came with no trace headers. */
    FrontRequest(String principal, FrontSession session, ObjectNode message) {
        this(principal, session, message, null);
    }
}
