package dev.mcptasks.core.runtime;

import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceAttributes;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import java.util.Locale;

/**
 * The trace of one claim: its span is a child of the context stored with the task, never of anything this worker
 * remembers, so a worker that takes the task over continues the same trace (the span says it took over). The remote
 * calls of the claim continue {@link #context()} (handed to the driver with its send permit), and the claim's last
 * write is a child span. Ended once, with the claim.
 */
final class ClaimTrace {
    private final Tracing tracing;
    private final TraceSpan span;

    ClaimTrace(Tracing tracing, ClaimedTask claimed) {
        this.tracing = tracing;
        this.span = tracing.start("claim " + claimed.claim().phase().wireName(), SpanRole.CONSUMER,
                        claimed.task().definition().trace())
                .attribute(TraceAttributes.TASK_ID, claimed.claim().taskId().value())
                .attribute(TraceAttributes.SERVER, claimed.task().definition().serverName())
                .attribute(TraceAttributes.PHASE, claimed.claim().phase().wireName())
                .attribute(TraceAttributes.WORKER, claimed.claim().owner().value())
                .attribute(TraceAttributes.TAKEOVER, claimed.recovered());
    }

    /** The context the claim's remote calls continue. */
    TraceContext context() {
        return span.context();
    }

    /** Starts the span of the claim's last write; its caller ends it. */
    TraceSpan lastWrite(FencedWrite kind) {
        String name = kind.name().toLowerCase(Locale.ROOT);
        return tracing.start("write " + name, SpanRole.INTERNAL, span.context()).attribute(TraceAttributes.WRITE, name);
    }

    /** The claim was lost or refused, or its operation failed. */
    void failed(String description) {
        span.error(description);
    }

    /** The claim's operation failed unexpectedly. */
    void failed(Throwable error) {
        span.error(error);
    }

    void end() {
        span.end();
    }
}
