package dev.mcptasks.mcp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A future whose {@code cancel} asks the work behind it to stop and returns at once, but which completes (as
 * cancelled) only once that work has let go of what it held. The runtime keeps a control slot until a driver's future
 * completes, so a cancelled call must not look finished while its request is still open on the wire. This bends
 * {@link java.util.concurrent.Future#cancel}: {@code isDone()} may stay false for a while after {@code cancel}
 * returned true.
 */
final class SettlingFuture<T> extends CompletableFuture<T> {
    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    private final Runnable onCancel;

    SettlingFuture(Runnable onCancel) {
        this.onCancel = onCancel;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (isDone()) {
            return isCancelled();
        }
        if (cancelRequested.compareAndSet(false, true)) {
            onCancel.run();
        }
        return true;
    }

    /** Whether a caller asked to cancel (the future may not be done yet). */
    boolean cancelRequested() {
        return cancelRequested.get();
    }

    /** Completes the future as cancelled, once the work let go. */
    void settleCancelled() {
        super.cancel(false);
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
