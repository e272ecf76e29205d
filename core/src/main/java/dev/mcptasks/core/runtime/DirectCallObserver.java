package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.SubmitObserver;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One submit's view of its direct call: once the call is sent it is watched for a user's cancel request, which
 * cancels the local call (the driver sends {@code notifications/cancelled} for its request) while the claim is kept,
 * so the submit ends the task {@code cancelled} with its own fenced write. A call that returns before its
 * cancellation took effect keeps its result: the driver's future then completes with it, not as cancelled. Its
 * progress becomes the task's status message through a {@link ProgressThrottle}, written beside the operation under
 * the same claim.
 */
final class DirectCallObserver implements SubmitObserver {
    private static final Logger LOG = LoggerFactory.getLogger(DirectCallObserver.class);
    private final TaskId id;
    private final ClaimContext context;
    private final DirectCallCancels cancels;
    private final ProgressThrottle throttle;
    /** Told of every progress report at once (this process's readers of the call); never throws. */
    private final BiConsumer<TaskId, CallProgress> liveProgress;
    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    /** Guarded by this: the watch of the call in flight, and whether the submit ended (no watch may start then). */
    private DirectCallCancels.Watch watch;
    private boolean ended;

    DirectCallObserver(TaskId id, ClaimContext context, DirectCallCancels cancels, ProgressThrottle throttle,
            BiConsumer<TaskId, CallProgress> liveProgress) {
        this.liveProgress = liveProgress;
        this.id = id;
        this.context = context;
        this.cancels = cancels;
        this.throttle = throttle;
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
        try {
            liveProgress.accept(id, progress);
        } catch (RuntimeException e) {
            LOG.warn("a live progress listener of task {} failed: {}", id.value(), e.toString());
        }
        throttle.offer(progress.statusMessage());
    }

    /** The submit's call returned, however: nothing is watched any more, and no progress write starts. */
    void ended() {
        throttle.close();
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
