package dev.mcptasks.app.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.OwnershipLossFence;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
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

    private final ClaimedTask claimed;
    private final PhaseHandler handler;
    private final TaskRepository repository;
    private final Clock clock;
    private final Executor executor;
    private final RuntimeListener listener;
    private final RuntimeCounters counters;
    private final LeaseHeartbeat heartbeat;
    private final OwnershipLossFence fence = new OwnershipLossFence();
    /** Taken by whoever ends the claim: the last write, or the cancellation release. Never both. */
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final CompletableFuture<Void> callSettled = new CompletableFuture<>();
    private final CompletableFuture<Void> settled;
    private CompletableFuture<?> call;
    private boolean callStarted;

    ControlOperation(ClaimedTask claimed, long claimedAtNanos, PhaseHandler handler, TaskRepository repository,
            Clock clock, Executor executor, RuntimeSettings settings, RuntimeListener listener,
            RuntimeCounters counters) {
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
     * Admits the operation: on an executor thread, verifies and extends the claim, then runs the phase. A claim that
     * waited for admission past its expiry fails verification, and the driver is never called.
     */
    void start() {
        executor.execute(this::admitted);
    }

    private void admitted() {
        heartbeat.verifyAndExtend().whenCompleteAsync((outcome, error) -> {
            if (error != null) {
                abandon(error);
                return;
            }
            if (!outcome.renewed()) {
                return; // reported to renewalLost already: the driver is never called
            }
            heartbeat.start();
            try {
                handler.run(this);
            } catch (RuntimeException | Error e) {
                abandon(e);
            }
        }, executor);
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
        refused(kind);
        if (ended.compareAndSet(false, true)) {
            end();
        }
        return false;
    }

    @Override
    public void finish(FencedWrite kind, BooleanSupplier write) {
        if (!ended.compareAndSet(false, true)) {
            return; // the claim was already released: nothing more is written for it
        }
        try {
            if (fence.isLost()) {
                release();
            } else if (!write.getAsBoolean()) {
                refused(kind);
            }
        } catch (RuntimeException e) {
            LOG.warn("task {}: {} failed; the claim stays until its lease expires: {}", taskId(), kind, e.toString());
        } finally {
            end();
        }
    }

    @Override
    public <T> void call(Supplier<CompletableFuture<T>> start, BiConsumer<T, Throwable> then) {
        CompletableFuture<T> future;
        synchronized (this) {
            if (fence.isLost() || ended.get()) {
                return;
            }
            try {
                future = start.get();
            } catch (RuntimeException e) {
                future = CompletableFuture.failedFuture(e);
            }
            call = future;
            callStarted = true;
        }
        // settlement is the driver's own future completing, never a local deadline or wrapper
        future.whenComplete((value, error) -> callSettled.complete(null));
        future.whenCompleteAsync((value, error) -> {
            try {
                then.accept(value, error);
            } catch (RuntimeException | Error e) {
                abandon(e);
            }
        }, executor);
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
            running = call;
            release = ended.compareAndSet(false, true);
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
        LOG.info("task {}: {} refused by the fence: the claim was lost meanwhile", taskId(), kind);
    }

    private void abandon(Throwable error) {
        LOG.warn("task {}: the {} operation failed unexpectedly", taskId(), claimed.claim().phase().wireName(), error);
        giveUp("operation failed: " + error, false);
    }

    /** Marks the claim ended: the heartbeat stops once this returns (after the last write finished). */
    private void end() {
        synchronized (this) {
            if (!callStarted) {
                callSettled.complete(null);
            }
        }
        finished.complete(null);
        listener.operationFinished(taskId());
    }
}
