package dev.mcptasks.testkit.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitResult;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One call made to a {@link GatedDriver}: it stays open until the test completes it (or a scripted answer does).
 * Records when it started and ended and whether the caller asked to cancel it. Depending on its
 * {@link CancelBehaviour}, a cancellation completes it at once or is swallowed (the call keeps running).
 */
public final class GatedCall {
    /** What a call does when its caller cancels its future. */
    public enum CancelBehaviour {
        /** The future completes cancelled at once (a cooperative transport). */
        COOPERATE,
        /** The cancellation is recorded but the call keeps running until the test completes it. */
        SWALLOW
    }

    private final GatedDriver.Kind kind;
    private final TaskId task;
    private final Object request;
    private final Instant startedAt;
    private final CancelBehaviour onCancel;
    private final SendPermit permit;
    private final Future future = new Future();
    private final CountDownLatch cancelRequested = new CountDownLatch(1);
    private volatile Instant endedAt;

    GatedCall(GatedDriver.Kind kind, TaskId task, Object request, Instant startedAt, CancelBehaviour onCancel,
            java.util.function.Supplier<Instant> clock, SendPermit permit) {
        this.permit = permit;
        this.kind = kind;
        this.task = task;
        this.request = request;
        this.startedAt = startedAt;
        this.onCancel = onCancel;
        future.whenComplete((value, error) -> endedAt = clock.get());
    }

    public GatedDriver.Kind kind() {
        return kind;
    }

    public TaskId task() {
        return task;
    }

    /**
     * What the call was asked: the {@code SubmitCall} of a submit, the {@code RemoteTaskRef} of a status or cancel,
     * the {@link GatedDriver.AnswerRequest} of an answer.
     */
    public Object request() {
        return request;
    }

    /**
     * The permit the caller gave with the call ({@link SendPermit#ALWAYS} for the single-argument forms): a test
     * asks it as a driver would before the call's next request.
     */
    public SendPermit permit() {
        return permit;
    }

    public Instant startedAt() {
        return startedAt;
    }

    /** When the call's future completed, or null while it runs. */
    public Instant endedAt() {
        return endedAt;
    }

    public boolean isSettled() {
        return future.isDone();
    }

    /** Whether the caller asked to cancel the call (whatever the call then did). */
    public boolean cancelRequested() {
        return cancelRequested.getCount() == 0;
    }

    /** Waits until the caller asks to cancel; false on timeout. */
    public boolean awaitCancelRequested(Duration timeout) throws InterruptedException {
        return cancelRequested.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Answers a status or cancel call. Returns false when the call had already completed. */
    public boolean complete(RemoteTaskSnapshot snapshot) {
        requireKind(kind == GatedDriver.Kind.STATUS || kind == GatedDriver.Kind.CANCEL, "a snapshot");
        return future.settle(snapshot);
    }

    /** Answers a submit call. Returns false when the call had already completed. */
    public boolean complete(SubmitResult result) {
        requireKind(kind == GatedDriver.Kind.SUBMIT, "a submit result");
        return future.settle(result);
    }

    /** Acknowledges an answer call. Returns false when the call had already completed. */
    public boolean acknowledge() {
        requireKind(kind == GatedDriver.Kind.ANSWER, "an acknowledgement");
        return future.settle(null);
    }

    /** Fails the call (typically with a {@code RemoteCallException}). */
    public boolean fail(Throwable error) {
        return future.completeExceptionally(error);
    }

    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> future() {
        return (CompletableFuture<T>) (CompletableFuture<?>) future;
    }

    void answer(Object scripted) {
        if (scripted == GatedDriver.ACKNOWLEDGED) {
            acknowledge();
        } else if (scripted instanceof Throwable error) {
            future.completeExceptionally(error);
        } else {
            future.settle(scripted);
        }
    }

    private void requireKind(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("a " + kind + " call cannot be answered with " + what);
        }
    }

    @Override
    public String toString() {
        return kind + "(" + task + ") started " + startedAt + (endedAt == null ? ", running" : ", ended " + endedAt)
                + (cancelRequested() ? ", cancel requested" : "");
    }

    /** The driver's future: cancelling it follows the call's {@link CancelBehaviour}. */
    private final class Future extends CompletableFuture<Object> {
        boolean settle(Object value) {
            return super.complete(value);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelRequested.countDown();
            return onCancel == CancelBehaviour.COOPERATE && super.cancel(mayInterruptIfRunning);
        }
    }
}
