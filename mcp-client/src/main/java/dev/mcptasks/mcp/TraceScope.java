package dev.mcptasks.mcp;

import dev.mcptasks.ports.trace.TraceContext;
import java.util.function.Supplier;

/**
 * The trace context of the operation step being started on this thread. {@link RemoteOperation} sets it only around
 * the synchronous start of one step, and {@link McpSession} reads it at the synchronous entry of a request, so a
 * request made by a step (and nothing else on the thread) continues that step's operation. Never held across threads
 * or beyond the call: nothing leaks into the next task the thread runs.
 */
final class TraceScope {
    private static final ThreadLocal<TraceContext> CURRENT = new ThreadLocal<>();

    private TraceScope() {}

    /** Runs {@code start} with {@code context} current (none when null), restoring what was current before. */
    static <T> T within(TraceContext context, Supplier<T> start) {
        TraceContext outer = CURRENT.get();
        if (context == null && outer == null) {
            return start.get();
        }
        CURRENT.set(context);
        try {
            return start.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** The context of the step starting on this thread, or null. */
    static TraceContext current() {
        return CURRENT.get();
    }
}
