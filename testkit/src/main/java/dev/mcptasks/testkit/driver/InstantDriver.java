package dev.mcptasks.testkit.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link TaskDriver} whose create answer is already terminal: one claim finishes a task, completed with an empty
 * tool result under remote id {@code r-<task id>}. It keeps no tasks, so a status read answers task lost and a cancel
 * is unsupported; it counts the submits it answered. Thread-safe.
 */
public final class InstantDriver implements TaskDriver {
    /** The driver name a server profile names to be served by this driver. */
    public static final String NAME = "instant";
    /** The protocol version its results report. */
    public static final String PROTOCOL = "2025-11-25";

    private final AtomicInteger submits = new AtomicInteger();

    @Override
    public String name() {
        return NAME;
    }

    /** The submits answered so far. */
    public int submits() {
        return submits.get();
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        submits.incrementAndGet();
        RemoteTaskSnapshot done = RemoteTaskSnapshot.of("r-" + call.taskId().value(), TaskStatus.COMPLETED)
                .withResult("{\"content\":[],\"isError\":false}");
        return CompletableFuture.completedFuture(new SubmitResult(done, PROTOCOL, false));
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.TASK_LOST,
                "the instant driver keeps no tasks: every create answer is terminal"));
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.UNSUPPORTED,
                "the instant driver keeps no tasks: nothing is left to cancel"));
    }
}
