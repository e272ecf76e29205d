package dev.mcptasks.mcp;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A driver operation made of several MCP requests, whose result future forwards a caller's {@code cancel} to the
 * request currently in flight (so the server gets {@code notifications/cancelled}); later steps never start.
 */
final class RemoteOperation<T> {
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();

    private RemoteOperation() {
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                inFlight.forEach(request -> request.cancel(true));
            }
        });
    }

    /** Runs {@code body} with a fresh operation and returns the operation's future; a thrown exception fails it. */
    static <T> CompletableFuture<T> run(java.util.function.Function<RemoteOperation<T>, CompletableFuture<T>> body) {
        RemoteOperation<T> operation = new RemoteOperation<>();
        CompletableFuture<T> chain;
        try {
            chain = body.apply(operation);
        } catch (RuntimeException e) {
            chain = CompletableFuture.failedFuture(e);
        }
        chain.whenComplete((value, error) -> {
            if (error != null) {
                operation.result.completeExceptionally(unwrap(error));
            } else {
                operation.result.complete(value);
            }
        });
        return operation.result;
    }

    /** Starts one request of this operation, unless the operation was cancelled already. */
    <R> CompletableFuture<R> track(Supplier<CompletableFuture<R>> request) {
        if (result.isDone()) {
            return CompletableFuture.failedFuture(new java.util.concurrent.CancellationException(
                    "the operation ended before this request"));
        }
        CompletableFuture<R> started = request.get();
        inFlight.add(started);
        started.whenComplete((value, error) -> inFlight.remove(started));
        if (result.isCancelled()) {
            started.cancel(true);
        }
        return started;
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
