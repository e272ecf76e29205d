package dev.mcptasks.core.runtime;

import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.FencedWrite;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * What a {@link PhaseHandler} may do under a claim whose heartbeat is running. Every write checks the task-local
 * ownership-loss fence right before it runs; a write the store refuses ends the operation with nothing more written.
 */
interface ClaimContext {
    ClaimedTask claimed();

    /** The clock's wall time now (completion times count from here). */
    Instant now();

    /** An intermediate fenced write; false when ownership is lost or the store refused (then stop). */
    boolean write(FencedWrite kind, BooleanSupplier write);

    /**
     * A write beside the operation that never ends the claim (a progress status message): skipped, returning false,
     * once ownership is lost or the claim ended; a refusal or failure is the caller's to ignore (the heartbeat and
     * the last write find out about a lost claim on their own).
     */
    boolean sideWrite(BooleanSupplier write);

    /**
     * An intermediate fenced write of a batchable kind that holds no thread while it waits for its commit:
     * {@code then} runs on the runtime's executor once the store accepted it. When ownership is lost first, or the
     * store refuses it, the operation ends as after a refused {@link #write}, and {@code then} never runs.
     */
    <A> void writeThen(GroupCommit.Kind<A, Boolean> write, A argument, Runnable then);

    /** The operation's last write, which clears the claim. At most one last write or release happens per claim. */
    void finish(FencedWrite kind, BooleanSupplier write);

    /**
     * Starts the remote call unless ownership is already lost or the locally confirmed lease lapsed. {@code start}
     * gets the permit to hand to the driver, which asks it before each later request of the operation: it refuses
     * once the confirmed lease lapsed (a worker paused past its lease), and the operation then ends with the claim
     * given up, nothing written. {@code then} runs on the runtime's executor when the call's future completes,
     * however it completes (except for that refusal); the capacity slot stays held until then.
     *
     * <p>An operation of several requests the runtime composes itself (deliver answers, then read the status) makes
     * its next call from the previous call's {@code then}: starting it makes the same check a permit makes (the
     * confirmed lease; a lapse gives the claim up, nothing written), and the operation settles only once every call
     * it started has returned.
     */
    <T> void call(Function<SendPermit, CompletableFuture<T>> start, BiConsumer<T, Throwable> then);

    /**
     * Cancels the remote call in flight, if any, and keeps the claim: the call's {@code then} runs once it settled
     * (cancelled, or with what it returned first), and the handler writes the outcome under the claim as usual.
     */
    void cancelCall();
}
