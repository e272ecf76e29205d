package dev.mcptasks.app.tracing;

import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tracing port over the OpenTelemetry API: a parent {@link TraceContext} is extracted with the W3C propagator, and
 * a span's context is injected back into the same two strings. Nothing is made current on any thread: the core hands
 * contexts on explicitly (the row, the send permit), as its work hops between executors and event loops.
 */
public final class OtelTracing implements Tracing {
    /** The instrumentation scope of every span. */
    public static final String SCOPE = "dev.mcptasks";
    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static final TextMapGetter<TraceContext> FROM_CONTEXT = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext carrier) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(TraceContext carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return switch (key) {
                case "traceparent" -> carrier.traceparent();
                case "tracestate" -> carrier.tracestate();
                default -> null;
            };
        }
    };

    private final Tracer tracer;

    public OtelTracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    @Override
    public TraceSpan start(String name, SpanRole role, TraceContext parent) {
        try {
            Context parentContext = parent == null ? Context.root() : W3C.extract(Context.root(), parent, FROM_CONTEXT);
            return new OtelSpan(tracer.spanBuilder(name).setParent(parentContext).setSpanKind(kind(role)).startSpan());
        } catch (RuntimeException e) {
            // tracing must never break a task: a span that cannot start hands its parent on
            return new PassThroughSpan(parent);
        }
    }

    private static SpanKind kind(SpanRole role) {
        return switch (role) {
            case INTERNAL -> SpanKind.INTERNAL;
            case PRODUCER -> SpanKind.PRODUCER;
            case CONSUMER -> SpanKind.CONSUMER;
            case CLIENT -> SpanKind.CLIENT;
        };
    }

    /** One OpenTelemetry span; its W3C context is computed once, when first asked for. */
    private static final class OtelSpan implements TraceSpan {
        private final Span span;
        private volatile TraceContext context;

        OtelSpan(Span span) {
            this.span = span;
        }

        @Override
        public TraceContext context() {
            TraceContext known = context;
            if (known == null && span.getSpanContext().isValid()) {
                Map<String, String> carrier = new HashMap<>(4);
                W3C.inject(Context.root().with(span), carrier, (map, key, value) -> map.put(key, value));
                known = TraceContext.parse(carrier.get("traceparent"), carrier.get("tracestate"));
                context = known;
            }
            return known;
        }

        @Override
        public TraceSpan attribute(String key, String value) {
            if (value != null) {
                span.setAttribute(key, value);
            }
            return this;
        }

        @Override
        public TraceSpan attribute(String key, long value) {
            span.setAttribute(key, value);
            return this;
        }

        @Override
        public TraceSpan attribute(String key, boolean value) {
            span.setAttribute(key, value);
            return this;
        }

        @Override
        public void error(Throwable error) {
            span.recordException(error);
            span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
        }

        @Override
        public void error(String description) {
            span.setStatus(StatusCode.ERROR, description);
        }

        @Override
        public void end() {
            span.end();
        }
    }
}
