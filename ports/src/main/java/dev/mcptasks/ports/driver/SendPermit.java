package dev.mcptasks.ports.driver;

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
}
