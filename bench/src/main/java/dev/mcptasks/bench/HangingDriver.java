package dev.mcptasks.bench;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** A driver whose create calls never answer: each claim stays in flight, renewed, until the worker stops. */
final class HangingDriver implements TaskDriver {
    private final AtomicInteger inFlight = new AtomicInteger();

    @Override
    public String name() {
        return NoopDriver.NAME;
    }

    int calls() {
        return inFlight.get();
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        inFlight.incrementAndGet();
        return new CompletableFuture<>(); // cancelled by the runtime when it stops
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
        return new CompletableFuture<>();
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.UNSUPPORTED,
                "the bench driver does not cancel"));
    }
}
