package dev.mcptasks.ports.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import java.util.concurrent.CompletableFuture;

/**
 * Talks to one kind of remote task API (native MCP tasks, ordinary submit/status/cancel tools). Every call returns
 * a future that may be cancelled: cancelling stops the local request (on MCP, {@code notifications/cancelled}); it
 * never cancels the remote task. A failed future carries a {@link RemoteCallException} saying how to classify it.
 *
 * <p>The runtime calls the forms that take a {@link SendPermit}; a driver whose operations send more than one
 * request overrides them and asks the permit before every request after the first. Their defaults ignore the permit
 * and call the single-argument forms, which is right for a driver that sends one request per operation.
 */
public interface TaskDriver {
    /** The name configured per server: {@code mcp-tasks} or {@code ordinary-tools}. */
    String name();

    /** Creates the remote task. Not idempotent: the runtime persists the attempt before calling. */
    CompletableFuture<SubmitResult> submit(SubmitCall call);

    /**
     * Reads the remote task; for {@code completed} and {@code failed} the result is fetched in the same operation.
     * {@code pollAfter} carries the server's interval hint.
     */
    CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task);

    /**
     * Asks the server to cancel; returns what the server then reports (an already-terminal answer is confirmed
     * with a status read and returned as that terminal status).
     */
    CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task);

    /** {@link #submit(SubmitCall)}, asking {@code permit} before each later request of the operation. */
    default CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit) {
        return submit(call);
    }

    /**
     * {@link #submit(SubmitCall, SendPermit)}, telling {@code observer} when the tool is sent as a direct call and
     * how it progresses. The default ignores the observer: a driver that never makes direct calls has nothing to tell.
     */
    default CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit, SubmitObserver observer) {
        return submit(call, permit);
    }

    /** {@link #status(RemoteTaskRef)}, asking {@code permit} before each later request of the operation. */
    default CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task, SendPermit permit) {
        return status(task);
    }

    /** {@link #cancel(RemoteTaskRef)}, asking {@code permit} before each later request of the operation. */
    default CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task, SendPermit permit) {
        return cancel(task);
    }

    /**
     * Delivers a user's answers to the task's input requests (2026-07-28: {@code tasks/update}). The server answers
     * with an acknowledgement only; the task's next status is read by a later {@link #status}. Answers to keys the
     * server no longer waits for are ignored by the server, so delivering an answer twice is harmless. Fails with
     * {@link RemoteFailure#UNSUPPORTED} (nothing sent) when the task's generation or server cannot take answers.
     *
     * @param inputResponsesJson a JSON object from input-request key to the bare answer
     */
    default CompletableFuture<Void> answer(RemoteTaskRef task, String inputResponsesJson, SendPermit permit) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.UNSUPPORTED, "driver '" + name()
                + "' cannot deliver answers to input requests"));
    }
}
