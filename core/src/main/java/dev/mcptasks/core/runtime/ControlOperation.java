package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.DurationText;
import dev.mcptasks.domain.LeaseMath;
import dev.mcptasks.domain.OwnershipLossFence;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claimed row from verification to settlement: verifies and extends the claim, runs the phase's remote call
 * under the heartbeat, and ends with exactly one of (a) the last fenced write or (b) the token-fenced cancellation
 * release. Ownership loss (a renewal rejected, failed or stalled) and cancellation by the supervisor set the
 * task-local fence, cancel the local call and release the claim; a call that swallows its cancellation and returns
 * later therefore persists nothing. The operation settles only when its remote call and its last renewal attempt
 * have actually returned.
 */
final class ControlOperation implements ClaimContext {
    private static final Logger LOG = LoggerFactory.getLogger(ControlOperation.class);
    /** The first delay before a failed last write is tried again. */
    static final Duration LAST_WRITE_RETRY = Duration.ofMillis(250);
    /** A poll's request sent longer than this after the store last confirmed its claim is confirmed again first. */
    static final Duration RECONFIRM_AFTER = Duration.ofMillis(50);

    private final ClaimedTask claimed;
    private final PhaseHandler handler;
    private final TaskRepository repository;
    private final Clock clock;
    private final Executor executor;
    private final RuntimeListener listener;
    private final RuntimeCounters counters;
    private final LeaseHeartbeat heartbeat;
    private final Transitions transitions;
    private final Duration lease;
    private final OwnershipLossFence fence = new OwnershipLossFence();
    /** Continues the trace stored with the task; ended with the claim ({@link #end}). */
    private final ClaimTrace trace;
    /** Taken by whoever ends the claim: the last write, or the cancellation release. Never both. */
    private final AtomicBoolean ended = new AtomicBoolean();
    /**
     * Set by a failed, rejected or stalled renewal (not by the supervisor's cancellation): the claim may belong to
     * someone else, so a last write being retried stops at once.
     */
    private volatile boolean ownershipLost;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final CompletableFuture<Void> callSettled = new CompletableFuture<>();
    private final CompletableFuture<Void> settled;
    /** The remote call running now (the latest one when a handler makes several in sequence). */
    private CompletableFuture<?> call;
    /** Remote calls started and not yet returned; guarded by this. */
    private int callsInFlight;
    /** Set when the claim ended: no call can start any more; guarded by this. */
    private boolean noMoreCalls;

    ControlOperation(ClaimedTask claimed, long claimedAtNanos, PhaseHandler handler, TaskRepository repository,
            Clock clock, Executor executor, RuntimeSettings settings, Transitions transitions,
            RuntimeListener listener, RuntimeCounters counters, Tracing tracing) {
        this.transitions = transitions;
        this.trace = new ClaimTrace(tracing, claimed);
        this.lease = settings.lease();
        this.claimed = claimed;
        this.handler = handler;
        this.repository = repository;
        this.clock = clock;
        this.executor = executor;
        this.listener = listener;
        this.counters = counters;
        this.heartbeat = new LeaseHeartbeat(claimed.claim(), claimedAtNanos, settings.lease(), repository, clock,
                executor, listener, counters, this::renewalLost);
        CompletableFuture<Void> renewalCleanup = finished.thenCompose(ignored -> heartbeat.stop());
        this.settled = CompletableFuture.allOf(finished, callSettled, renewalCleanup);
    }

    /** Whose call this is (the gateway principal that submitted the task), or null. */
    String principal() {
        return claimed.task().definition().principal();
    }

    TaskId taskId() {
        return claimed.claim().taskId();
    }

    /** Completes when the claim ended (last write done, or released). */
    CompletableFuture<Void> finished() {
        return finished;
    }

    /** Completes when the remote call and the last renewal attempt returned too. */
    CompletableFuture<Void> settled() {
        return settled;
    }

    /** The cause of losing or giving up the claim, if any. */
    java.util.Optional<String> lossCause() {
        return fence.cause();
    }

    /**
     * Admits the operation: on an executor thread, verifies and extends the claim unless it is fresh (see
     * {@link LeaseHeartbeat#confirmedByClaim}), then runs the phase. A claim that waited for admission past its
     * expiry fails verification, and the driver is never called.
     */
    void start() {
        try {
            executor.execute(this::admitted);
        } catch (RuntimeException e) {
            // an executor that rejects this row must not strand it: the claim is released here, on the scan thread
            LOG.warn("task {}: the {} operation could not be started; releasing its claim: {}", taskId(),
                    claimed.claim().phase().wireName(), e.toString());
            giveUp("could not start: " + e, false);
        }
    }

    private void admitted() {
        if (confirmedByClaimStatement()) {
            run();
            return;
        }
        heartbeat.verifyAndExtend().whenCompleteAsync((outcome, error) -> {
            if (error != null) {
                abandon(error);
                return;
            }
            if (!outcome.renewed()) {
                return; // reported to renewalLost already: the driver is never called
            }
            run();
        }, executor);
    }

    /**
     * Admitted within the first renewal interval, a claim that only expiry can take away needs no verification
     * renewal: its lease runs for at least two thirds of the lease more (a submit is also fenced again by its
     * submit-attempt record before the create request).
     */
    private boolean confirmedByClaimStatement() {
        return onlyExpiryTakesTheClaim() && heartbeat.confirmedByClaim();
    }

    /**
     * Whether the monotonic check of the confirmed lease is all a send needs: true for submit and cancel claims. A
     * user's cancel request clears a poll lease at once (runtime-behaviour 4.3), which only the store sees; a status
     * call sent after it would overlap the cancel phase's call.
     */
    private boolean onlyExpiryTakesTheClaim() {
        return claimed.claim().phase() != ClaimPhase.POLL;
    }

    private void run() {
        heartbeat.start();
        try {
            handler.run(this);
        } catch (RuntimeException | Error e) {
            abandon(e);
        }
    }

    /** Gives the claim up on behalf of the supervisor (shutdown): same path as a loss, not counted as one. */
    void cancel(String cause) {
        executor.execute(() -> giveUp(cause, false));
    }

    @Override
    public ClaimedTask claimed() {
        return claimed;
    }

    @Override
    public Instant now() {
        return clock.now();
    }

    @Override
    public boolean write(FencedWrite kind, BooleanSupplier write) {
        if (fence.isLost() || ended.get()) {
            return false;
        }
        if (write.getAsBoolean()) {
            return true;
        }
        refusedWrite(kind);
        return false;
    }

    @Override
    public boolean sideWrite(BooleanSupplier write) {
        if (fence.isLost() || ended.get()) {
            return false;
        }
        return write.getAsBoolean();
    }

    @Override
    public <A> void writeThen(GroupCommit.Kind<A, Boolean> write, A argument, Runnable then) {
        if (fence.isLost() || ended.get()) {
            return;
        }
        // queued on the group commit: during a claim burst thousands of operations wait for their commits, and none
        // of them holds an executor thread meanwhile
        GroupCommittingRepository.async(repository, executor, write, argument).whenCompleteAsync((accepted, error) -> {
            if (error != null) {
                abandon(Transitions.unwrap(error));
            } else if (!accepted) {
                if (!fence.isLost() && !ended.get()) {
                    refusedWrite(write.write());
                }
            } else if (!fence.isLost() && !ended.get()) {
                try {
                    then.run();
                } catch (RuntimeException | Error e) {
                    abandon(e);
                }
            }
        }, executor);
    }

    private void refusedWrite(FencedWrite kind) {
        refused(kind);
        if (ended.compareAndSet(false, true)) {
            // a refusal may come from a fence predicate other than ownership (a cancel requested meanwhile): the
            // claim can still be this one, so give it back now instead of letting it block the row until expiry
            try {
                release();
            } finally {
                end();
            }
        }
    }

    @Override
    public void finish(FencedWrite kind, BooleanSupplier write) {
        if (!ended.compareAndSet(false, true)) {
            return; // the claim was already released: nothing more is written for it
        }
        attemptLastWrite(kind, write, trace.lastWrite(kind), 0, clock.nanoTime());
    }

    /**
     * Runs the last write; a write that throws (a store blip) is tried again with backoff, because it may carry
     * what exists only in memory (a created remote task's id, a terminal result). The write is fenced and
     * idempotent, so repeating it is safe. The heartbeat keeps renewing meanwhile ({@code finished} is not
     * completed yet). Retries stop when the claim is lost, or before the locally confirmed lease (monotonic clock)
     * or one lease since the first failure would run out; the claim is then given back by the cancellation release.
     */
    private void attemptLastWrite(FencedWrite kind, BooleanSupplier write, TraceSpan writing, int failures,
            long firstTryNanos) {
        if (fence.isLost() && (ownershipLost || failures == 0)) {
            writing.error("not written: the claim was lost (" + fence.cause().orElse("unknown") + ")");
            writing.end();
            releaseAndEnd();
            return;
        }
        try {
            if (!write.getAsBoolean()) {
                refused(kind);
                writing.error("the store refused " + kind + ": the claim was lost meanwhile");
            }
            writing.end();
            end();
            return;
        } catch (RuntimeException e) {
            Duration delay = retryDelay(failures);
            long now = clock.nanoTime();
            long retryAt = now + delay.toNanos();
            if (ownershipLost || retryAt >= heartbeat.confirmedUntilNanos()
                    || retryAt >= firstTryNanos + lease.toNanos()) {
                LOG.warn("task {}: {} failed {} time(s) and cannot be retried within the confirmed lease; releasing"
                        + " the claim: {}", taskId(), kind, failures + 1, e.toString());
                writing.error(e);
                writing.end();
                releaseAndEnd();
                return;
            }
            LOG.info("task {}: {} failed; retrying in {} while the lease is confirmed: {}", taskId(), kind,
                    DurationText.of(delay), e.toString());
            clock.schedule(delay, () -> executor.execute(
                    () -> attemptLastWrite(kind, write, writing, failures + 1, firstTryNanos)));
            listener.finalWriteRetry(taskId(), delay);
        }
    }

    /** 250 ms doubling per failure, at most a sixth of the lease (half a renewal interval). */
    private Duration retryDelay(int failures) {
        Duration cap = LeaseMath.part(lease, 6);
        Duration delay = LAST_WRITE_RETRY.multipliedBy(1L << Math.min(failures, 16));
        return delay.compareTo(cap) > 0 ? cap : delay;
    }

    private void releaseAndEnd() {
        try {
            release();
        } finally {
            end();
        }
    }

    /**
     * Asked by the driver before each later request of the call, on whatever thread the previous answer arrived:
     * the same monotonic check as before the call. A renewal that confirms the lease again moves the bound on; a
     * worker paused past it (SIGSTOP) is refused even before its queued renewal runs and is rejected.
     */
    private boolean maySend() {
        return !fence.isLost() && clock.nanoTime() < heartbeat.confirmedUntilNanos();
    }

    /**
     * Asked by the driver before each request, after whatever it did first. A poll claim confirmed longer than
     * {@link #RECONFIRM_AFTER} ago (a session had to be opened, a status read was answered late) is confirmed with the
     * store first (see {@link #onlyExpiryTakesTheClaim}).
     */
    private CompletableFuture<Boolean> confirm() {
        if (!maySend()) {
            return CompletableFuture.completedFuture(false);
        }
        if (onlyExpiryTakesTheClaim()
                || clock.nanoTime() - heartbeat.lastConfirmedNanos() < RECONFIRM_AFTER.toNanos()) {
            return CompletableFuture.completedFuture(true);
        }
        return heartbeat.verifyAndExtend().thenApply(outcome -> outcome.renewed() && maySend());
    }

    /** The permit handed to the driver: both checks above. */
    private final class Permit implements SendPermit {
        @Override
        public boolean maySend() {
            return ControlOperation.this.maySend();
        }

        @Override
        public CompletableFuture<Boolean> confirm() {
            return ControlOperation.this.confirm();
        }

        @Override
        public TraceContext traceContext() {
            return trace.context();
        }
    }

    @Override
    public <T> void call(Function<SendPermit, CompletableFuture<T>> start, BiConsumer<T, Throwable> then) {
        CompletableFuture<T> future;
        boolean lapsed = false;
        synchronized (this) {
            if (fence.isLost() || ended.get()) {
                return;
            }
            if (clock.nanoTime() >= heartbeat.confirmedUntilNanos()) {
                // a worker resumed after a pause (SIGSTOP, a long GC) may have lost the row meanwhile: never send
                lapsed = true;
                future = null;
            } else {
                try {
                    future = start.apply(new Permit());
                } catch (RuntimeException e) {
                    future = CompletableFuture.failedFuture(e);
                }
                if (future == null) {
                    throw new NullPointerException("the driver returned no future");
                }
                call = future;
                callsInFlight++;
            }
        }
        if (lapsed) {
            LOG.info("task {}: the locally confirmed lease lapsed before the remote call; sending nothing", taskId());
            giveUp("the locally confirmed lease lapsed before the remote call", true);
            return;
        }
        // settlement is the driver's own future completing, never a local deadline or wrapper
        future.whenComplete((value, error) -> callReturned());
        future.whenCompleteAsync((value, error) -> {
            if (error != null && Transitions.classify(error) == RemoteFailure.PERMIT_REFUSED && !fence.isLost()) {
                // the driver stopped between two requests because the confirmed lease lapsed: the row may be
                // someone else's by now, so it is given up as lost; no outcome of this call is written
                giveUp("the locally confirmed lease lapsed during the remote call; its next request was not sent",
                        true);
                return;
            }
            try {
                then.accept(value, error);
            } catch (RuntimeException | Error e) {
                abandon(e);
            }
        }, executor);
    }

    @Override
    public void cancelCall() {
        CompletableFuture<?> running;
        synchronized (this) {
            running = call;
        }
        if (running != null) {
            running.cancel(true);
        }
    }

    private void renewalLost(RenewalOutcome outcome) {
        executor.execute(() -> giveUp(outcome.describe(), true));
    }

    /** Sets the fence, stops the local call (never the remote task) and releases the claim once. */
    private void giveUp(String cause, boolean ownershipLoss) {
        CompletableFuture<?> running;
        boolean release;
        synchronized (this) {
            fence.markLost(cause);
            if (ownershipLoss) {
                ownershipLost = true;
            }
            running = call;
            release = ended.compareAndSet(false, true);
        }
        if (ownershipLoss) {
            trace.failed("ownership of the claim lost: " + fence.cause().orElse(cause));
        }
        if (ownershipLoss && release) {
            counters.ownershipLosses.incrementAndGet();
            LOG.info("task {}: ownership of the {} claim lost ({}); stopping the local call", taskId(),
                    claimed.claim().phase().wireName(), cause);
        }
        listener.ownershipLost(taskId(), fence.cause().orElse(cause));
        if (running != null) {
            running.cancel(true);
        }
        if (release) {
            try {
                release();
            } finally {
                end();
            }
        }
    }

    /** The token-fenced cancellation release: clears the claim only, so the row is due again at once. */
    private void release() {
        Claim claim = claimed.claim();
        try {
            if (!repository.releaseCancelled(claim)) {
                LOG.info("task {}: the claim was already gone when releasing it", taskId());
            }
        } catch (RuntimeException e) {
            LOG.warn("task {}: releasing the claim failed; it stays until its lease expires: {}", taskId(),
                    e.toString());
        }
    }

    private void refused(FencedWrite kind) {
        counters.fencedWrites.incrementAndGet();
        fence.markLost("the store refused " + kind);
        trace.failed("the store refused " + kind + ": the claim was lost meanwhile");
        LOG.info("task {}: {} refused by the fence: the claim was lost meanwhile", taskId(), kind);
    }

    /**
     * An unexpected exception in the handler (a bug, not a classified remote failure): the local call is stopped and
     * the claim ends in a counted failure release with backoff, so a handler that always throws cannot spin the
     * loop. The attempt marker of a submit is kept: the create may have been sent.
     */
    private void abandon(Throwable error) {
        LOG.warn("task {}: the {} operation failed unexpectedly", taskId(), claimed.claim().phase().wireName(), error);
        trace.failed(error);
        CompletableFuture<?> running;
        synchronized (this) {
            running = call;
        }
        if (running != null) {
            running.cancel(true);
        }
        if (fence.isLost()) {
            giveUp("operation failed: " + error, false);
            return;
        }
        String message = "unexpected failure in the " + claimed.claim().phase().wireName() + " phase: " + error;
        FailureWrite failure;
        try {
            failure = transitions.failure(claimed.task(), message, clock.now(), false,
                    claimed.claim().phase() == ClaimPhase.POLL);
        } catch (RuntimeException e) {
            giveUp("operation failed: " + error, false);
            return;
        }
        finish(FencedWrite.RELEASE_FAILURE, () -> repository.releaseAfterFailure(claimed.claim(), failure));
    }

    /**
     * A handler may make several remote calls in sequence (deliver answers, then read the status): the operation has
     * settled only when the claim ended (no call can start after that) and every call it started has returned.
     */
    private void callReturned() {
        boolean allReturned;
        synchronized (this) {
            callsInFlight--;
            allReturned = noMoreCalls && callsInFlight == 0;
        }
        if (allReturned) {
            callSettled.complete(null);
        }
    }

    /** Marks the claim ended: the heartbeat stops once this returns (after the last write finished). */
    private void end() {
        boolean allReturned;
        synchronized (this) {
            noMoreCalls = true;
            allReturned = callsInFlight == 0;
        }
        if (allReturned) {
            callSettled.complete(null);
        }
        trace.end();
        finished.complete(null);
        listener.operationFinished(taskId());
    }
}
