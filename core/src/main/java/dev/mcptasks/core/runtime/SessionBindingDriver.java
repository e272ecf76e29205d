package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.util.concurrent.CompletableFuture;

/**
 * A driver that reports tasks created on a server this worker found to be session-bound as process-local, whatever
 * the configuration said; everything else passes through (every method of {@link TaskDriver}: a default left
 * un-forwarded would silently replace the real driver's behaviour).
 */
final class SessionBindingDriver implements TaskDriver {
    private final TaskDriver delegate;
    private final SessionBindings bindings;

    SessionBindingDriver(TaskDriver delegate, SessionBindings bindings) {
        this.delegate = delegate;
        this.bindings = bindings;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        return submit(call, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit) {
        return submit(call, permit, SubmitObserver.NONE);
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit, SubmitObserver observer) {
        CompletableFuture<SubmitResult> submitted = delegate.submit(call, permit, observer);
        Relay relayed = new Relay(submitted);
        submitted.whenComplete((result, error) -> {
            if (error != null) {
                relayed.completeExceptionally(error);
            } else {
                // only a created task lives somewhere; an input round keeps its request state
                relayed.complete(result.processLocal() || !result.createdTask() || !bindings.isBound(call.serverName())
                        ? result
                        : result.asProcessLocal());
            }
        });
        return relayed;
    }

    /**
     * The outcome of the delegate's submit, whose {@code cancel} cancels the delegate's future (a derived future's
     * would not: the call would run on unannounced, with its slot already given back) and which completes only when
     * that future does, so the caller's slot stays held until the call really settled.
     */
    private static final class Relay extends CompletableFuture<SubmitResult> {
        private final CompletableFuture<SubmitResult> source;

        Relay(CompletableFuture<SubmitResult> source) {
            this.source = source;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return source.cancel(mayInterruptIfRunning);
        }
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
        return delegate.status(task);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task, SendPermit permit) {
        return delegate.status(task, permit);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
        return delegate.cancel(task);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task, SendPermit permit) {
        return delegate.cancel(task, permit);
    }

    @Override
    public CompletableFuture<Void> answer(RemoteTaskRef task, String inputResponsesJson, SendPermit permit) {
        return delegate.answer(task, inputResponsesJson, permit);
    }
}
