package dev.mcptasks.ports.trace;

/**
 * Where spans go: the seam that keeps the domain, the core and the MCP client free of any tracing library. The
 * composition root binds an OpenTelemetry implementation when tracing is enabled, {@link #NONE} otherwise.
 * Implementations are thread-safe and never throw.
 */
public interface Tracing {
    /** Records nothing; its spans hand on their parent's context unchanged (a no-op OpenTelemetry tracer's rule). */
    Tracing NONE = (name, role, parent) -> new PassThroughSpan(parent);

    /**
     * Starts a span.
     *
     * @param name a low-cardinality name (never a task id)
     * @param parent the context to continue (stored with a task, or received with a request), or null for a new root
     *     trace (with {@link #NONE}: no context at all)
     */
    TraceSpan start(String name, SpanRole role, TraceContext parent);

    /** The span of {@link #NONE}: no recording, its parent's context handed on. */
    record PassThroughSpan(TraceContext context) implements TraceSpan {
        @Override
        public TraceSpan attribute(String key, String value) {
            return this;
        }

        @Override
        public TraceSpan attribute(String key, long value) {
            return this;
        }

        @Override
        public TraceSpan attribute(String key, boolean value) {
            return this;
        }

        @Override
        public void error(Throwable error) {}

        @Override
        public void error(String description) {}

        @Override
        public void end() {}
    }
}
