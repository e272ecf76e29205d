package dev.mcptasks.app.runtime;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.SubmitObserver;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One submit's view of its direct call: once the call is sent it is watched for a user's cancel request, which
 * cancels the local call (the driver sends {@code notifications/cancelled} for its request) while the claim is kept,
 * so the submit ends the task {@code cancelled} with its own fenced write. A call that returns before its
 * cancellation took effect keeps its result: the driver's future then completes with it, not as cancelled.
 */
final class DirectCallObserver implements SubmitObserver {
    private final TaskId id;
    private final ClaimContext context;
    private final DirectCallCancels cancels;
    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    /** Guarded by this: the watch of the call in flight, and whether the submit ended (no watch may start then). */
    private DirectCallCancels.Watch watch;
    private boolean ended;

    DirectCallObserver(TaskId id, ClaimContext context, DirectCallCancels cancels) {
        this.id = id;
        this.context = context;
        this.cancels = cancels;
    }

    @Override
    public void directCallSent() {
        synchronized (this) {
            if (!ended && watch == null) {
                watch = cancels.watch(id, this::cancelRequested);
            }
        }
    }

    @Override
    public void progress(CallProgress progress) {
        // storing it as the status message needs a fenced write that keeps the claim (proposed to the store owner)
    }

    /** The submit's call returned, however: nothing is watched any more. */
    void ended() {
        DirectCallCancels.Watch stopping;
        synchronized (this) {
            ended = true;
            stopping = watch;
        }
        if (stopping != null) {
            stopping.stop();
        }
    }

    /** Whether the call ended because a user's cancel request stopped it. */
    boolean cancelledByUser(Throwable error) {
        return cancelRequested.get() && Transitions.unwrap(error) instanceof CancellationException;
    }

    private void cancelRequested() {
        cancelRequested.set(true);
        context.cancelCall();
    }
}
