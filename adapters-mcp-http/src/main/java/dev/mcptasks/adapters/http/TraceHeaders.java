package dev.mcptasks.adapters.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.ports.trace.TraceContext;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * The W3C trace headers of a POST, read from the outgoing request's own {@code params._meta} ({@code traceparent},
 * {@code tracestate}), where the MCP client put the context of the request's span: the transport port needs no trace
 * parameter, and HTTP-level tracing upstream sees the same context as MCP-level tracing. Only a well-formed context
 * ({@link TraceContext#parse}) is sent; anything else sends no header.
 *
 * @param context the context to send
 */
record TraceHeaders(TraceContext context) {
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";

    /** The headers of a request whose {@code _meta} carries a trace context, or null. */
    static TraceHeaders of(JsonNode parsed) {
        if (parsed == null || !parsed.path("method").isTextual()) {
            return null;
        }
        JsonNode meta = parsed.path("params").path("_meta");
        JsonNode parent = meta.path(TRACEPARENT);
        JsonNode state = meta.path(TRACESTATE);
        TraceContext context = TraceContext.parse(parent.isTextual() ? parent.textValue() : null,
                state.isTextual() ? state.textValue() : null);
        return context == null ? null : new TraceHeaders(context);
    }

    void applyTo(HttpHeaders headers) {
        headers.set(TRACEPARENT, context.traceparent());
        if (context.tracestate() != null) {
            headers.set(TRACESTATE, context.tracestate());
        }
    }
}
