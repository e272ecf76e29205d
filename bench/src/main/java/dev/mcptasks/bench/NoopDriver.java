package dev.mcptasks.bench;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.util.concurrent.CompletableFuture;
import java.util.function.ObjLongConsumer;

/**
 * An in-process driver whose create answer is already terminal: one claim finishes a task, so a burn-down measures
 * the runtime and the store, nothing remote. {@code onSubmit} sees each call with the nano time it arrived.
 */
final class NoopDriver implements TaskDriver {
    static final String NAME = "bench-noop";
    static final String PROTOCOL = "2025-11-25";

    private final ObjLongConsumer<TaskId> onSubmit;

    NoopDriver(ObjLongConsumer<TaskId> onSubmit) {
        this.onSubmit = onSubmit;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        onSubmit.accept(call.taskId(), System.nanoTime());
        RemoteTaskSnapshot done = RemoteTaskSnapshot.of("r-" + call.taskId().value(), TaskStatus.COMPLETED)
                .withResult("{\"content\":[],\"isError\":false}");
        return CompletableFuture.completedFuture(new SubmitResult(done, PROTOCOL, false));
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
        // never reached: every create answer is terminal
        return CompletableFuture.completedFuture(RemoteTaskSnapshot.of(task.remoteTaskId(), TaskStatus.COMPLETED)
                .withResult("{\"content\":[],\"isError\":false}"));
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.UNSUPPORTED,
                "the bench driver does not cancel"));
    }
}
