package dev.mcptasks.ports.trace;

/**
 * One started span. Calls never throw and return at once; {@link #end} is idempotent. A span of the no-op
 * {@link Tracing#NONE} records nothing and hands on the context it was started under.
 */
public interface TraceSpan {
    /**
     * The context that continues this span: stored with a task, or sent with an upstream request. With tracing off it
     * is the parent's (so a client's context still reaches the upstream); null when there is none.
     */
    TraceContext context();

    /** Sets a string attribute (never a secret: spans leave the process). */
    TraceSpan attribute(String key, String value);

    /** Sets a numeric attribute. */
    TraceSpan attribute(String key, long value);

    /** Sets a boolean attribute. */
    TraceSpan attribute(String key, boolean value);

    /** Marks the span failed with {@code error} (recorded as an exception event). */
    void error(Throwable error);

    /** Marks the span failed with {@code description}. */
    void error(String description);

    /** Ends the span; later calls do nothing. */
    void end();
}
