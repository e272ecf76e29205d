package dev.mcptasks.mcp;

import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitObserver;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A driver operation made of several MCP requests, whose result future forwards a caller's {@code cancel} to the
 * request currently in flight (so the server gets {@code notifications/cancelled} and the transport drops the
 * request); later steps never start. Every step asks the caller's {@link SendPermit#confirm} first (the first too:
 * the runtime has just confirmed its claim, so it answers at once). A cancelled operation completes only once its
 * requests in flight have let go of the transport, so the runtime's control slot stays held until the connection is
 * really closed.
 */
final class RemoteOperation<T> {
    private final SettlingFuture<T> result = new SettlingFuture<>(this::cancelInFlight);
    private final SendPermit permit;
    private final SubmitObserver observer;
    /** Guarded by this, with the cancellation request: a request starts only while none was made. */
    private final Set<CompletableFuture<?>> inFlight = new HashSet<>();

    private RemoteOperation(SendPermit permit, SubmitObserver observer) {
        this.permit = permit;
        this.observer = observer;
    }

    /**
     * Runs {@code body} with a fresh operation and returns the operation's future; a thrown exception fails it.
     * {@code permit} is asked before each request the operation starts.
     */
    static <T> CompletableFuture<T> run(SendPermit permit, Function<RemoteOperation<T>, CompletableFuture<T>> body) {
        return run(permit, SubmitObserver.NONE, body);
    }

    /** {@link #run(SendPermit, Function)} for a submit whose caller observes direct calls. */
    static <T> CompletableFuture<T> run(SendPermit permit, SubmitObserver observer,
            Function<RemoteOperation<T>, CompletableFuture<T>> body) {
        RemoteOperation<T> operation = new RemoteOperation<>(Objects.requireNonNull(permit, "permit"),
                Objects.requireNonNull(observer, "observer"));
        CompletableFuture<T> chain;
        try {
            chain = body.apply(operation);
        } catch (RuntimeException e) {
            chain = CompletableFuture.failedFuture(e);
        }
        chain.whenComplete((value, error) -> {
            if (operation.result.cancelRequested()) {
                operation.settleIfIdle();
            } else if (error != null) {
                operation.result.completeExceptionally(unwrap(error));
            } else {
                operation.result.complete(value);
            }
        });
        return operation.result;
    }

    /** Who observes this operation's direct call, if it makes one. */
    SubmitObserver observer() {
        return observer;
    }

    /**
     * Starts one request of this operation, unless the operation was cancelled already or the permit is refused
     * (then the step fails with {@link RemoteFailure#PERMIT_REFUSED}, which every driver passes on unchanged).
     */
    <R> CompletableFuture<R> track(Supplier<CompletableFuture<R>> request) {
        // asked right before sending, after the previous step was answered: a worker that was paused past its lease
        // while that answer was on its way, or whose claim the store took away meanwhile (a cancel request takes a
        // row from its poll), must not act on a task someone else may own by now. The caller answers at once when
        // its confirmation is recent, so a step that follows another quickly costs no store round trip.
        CompletableFuture<Boolean> confirmed;
        try {
            confirmed = permit.confirm();
        } catch (RuntimeException e) {
            confirmed = CompletableFuture.failedFuture(e);
        }
        return confirmed.handle((permitted, error) -> Boolean.TRUE.equals(permitted) && error == null)
                .thenCompose(permitted -> start(request, permitted));
    }

    private <R> CompletableFuture<R> start(Supplier<CompletableFuture<R>> request, boolean permitted) {
        CompletableFuture<R> started;
        synchronized (this) {
            if (result.isDone() || result.cancelRequested()) {
                return CompletableFuture.failedFuture(new CancellationException(
                        "the operation ended before this request"));
            }
            if (!permitted) {
                return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.PERMIT_REFUSED,
                        "the caller's permit to send was withdrawn (its lease lapsed, or the store no longer holds"
                                + " its claim) before the next request of the operation; nothing more was sent"));
            }
            // the request is made on this thread, so the session reads the operation's trace context here
            started = TraceScope.within(permit.traceContext(), request);
            inFlight.add(started);
        }
        started.whenComplete((value, error) -> {
            synchronized (this) {
                inFlight.remove(started);
            }
            settleIfIdle();
        });
        return started;
    }

    private void cancelInFlight() {
        List<CompletableFuture<?>> running;
        synchronized (this) {
            running = List.copyOf(inFlight);
        }
        running.forEach(request -> request.cancel(true));
        settleIfIdle();
    }

    /** A cancelled operation ends once nothing it started is still in flight. */
    private void settleIfIdle() {
        boolean idle;
        synchronized (this) {
            idle = inFlight.isEmpty();
        }
        if (idle && result.cancelRequested()) {
            result.settleCancelled();
        }
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
