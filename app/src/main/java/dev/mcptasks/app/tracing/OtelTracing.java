package dev.mcptasks.app.tracing;

import dev.mcptasks.ports.secret.SecretRedactor;
import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
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

    private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
    private static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");

    private final Tracer tracer;
    private final SecretRedactor secrets;

    public OtelTracing(OpenTelemetry openTelemetry) {
        this(openTelemetry, SecretRedactor.NONE);
    }

    /**
     * @param secrets removes the process's secrets from error texts, which often carry what an upstream sent: spans
     *     leave the process, so they get what the store and the log get
     */
    public OtelTracing(OpenTelemetry openTelemetry, SecretRedactor secrets) {
        this.tracer = openTelemetry.getTracer(SCOPE);
        this.secrets = secrets;
    }

    @Override
    public TraceSpan start(String name, SpanRole role, TraceContext parent) {
        try {
            Context parentContext = parent == null ? Context.root() : W3C.extract(Context.root(), parent, FROM_CONTEXT);
            return new OtelSpan(tracer.spanBuilder(name).setParent(parentContext).setSpanKind(kind(role)).startSpan(),
                    secrets);
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
        private final SecretRedactor secrets;
        private volatile TraceContext context;

        OtelSpan(Span span, SecretRedactor secrets) {
            this.span = span;
            this.secrets = secrets;
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

        /** The exception event of the semantic conventions, its message redacted and without a stack trace. */
        @Override
        public void error(Throwable error) {
            String message = error.getMessage() == null ? error.getClass().getSimpleName()
                    : secrets.redact(error.getMessage());
            span.addEvent("exception", Attributes.of(EXCEPTION_TYPE, error.getClass().getName(), EXCEPTION_MESSAGE,
                    message));
            span.setStatus(StatusCode.ERROR, message);
        }

        @Override
        public void error(String description) {
            span.setStatus(StatusCode.ERROR, secrets.redact(description));
        }

        @Override
        public void end() {
            span.end();
        }
    }
}
