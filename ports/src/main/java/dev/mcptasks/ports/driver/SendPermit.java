package dev.mcptasks.ports.driver;

import dev.mcptasks.ports.trace.TraceContext;
import java.util.concurrent.CompletableFuture;

/**
 * Asked by a driver right before each request of an operation after the first: may this worker still send? An
 * operation has several remote steps (read the status, then fetch the result), and the caller's right to act on the
 * task may end between them (a worker paused past its lease, whose task another worker took over meanwhile). A
 * refused permit ends the operation at once, without sending, with {@link RemoteFailure#PERMIT_REFUSED}.
 * Implementations are cheap, non-blocking and thread-safe: drivers call them on transport threads.
 */
@FunctionalInterface
public interface SendPermit {
    /** Always permits: for callers without a lease. */
    SendPermit ALWAYS = () -> true;

    /** True while the next request may be sent. */
    boolean maySend();

    /**
     * The asynchronous form, which drivers built on the MCP client ask before every request: may this worker still
     * send? Unlike {@link #maySend} the answer may take a store round trip, because a claim can be taken from a worker
     * before its lease runs out (a user's cancel request takes a row from its poll) and only the store knows that. A
     * caller answers at once when its last confirmation is recent, so only a request that follows a slow step (a
     * session that had to be opened, a status read answered late) costs one. {@code false} or a failed future ends the
     * operation without sending, with {@link RemoteFailure#PERMIT_REFUSED}. The default answers {@link #maySend()}.
     */
    default CompletableFuture<Boolean> confirm() {
        return CompletableFuture.completedFuture(maySend());
    }

    /**
     * The trace context the requests sent under this permit continue (the claim's span), or null for none. Drivers
     * built on the MCP client make each request a child span of it and send its context upstream.
     */
    default TraceContext traceContext() {
        return null;
    }
}
