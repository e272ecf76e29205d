package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.trace.TraceContext;

/**
 * A request's trace context in its {@code params._meta} ({@code traceparent}, {@code tracestate}), as MCP carries
 * OpenTelemetry context on any transport. The HTTP transport also sends them as the W3C headers, read from there.
 */
final class TraceMeta {
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";

    private TraceMeta() {}

    /** A copy of {@code params} (null means none) whose {@code _meta} carries {@code context}; as is when null. */
    static JsonNode with(JsonNode params, TraceContext context) {
        if (context == null || (params != null && !params.isObject())) {
            return params;
        }
        ObjectNode copy = params == null ? Json.object() : ((ObjectNode) params).deepCopy();
        JsonNode existing = copy.get("_meta");
        ObjectNode meta = existing != null && existing.isObject() ? (ObjectNode) existing : Json.object();
        meta.put(TRACEPARENT, context.traceparent());
        if (context.tracestate() != null) {
            meta.put(TRACESTATE, context.tracestate());
        } else {
            meta.remove(TRACESTATE);
        }
        copy.set("_meta", meta);
        return copy;
    }
}
