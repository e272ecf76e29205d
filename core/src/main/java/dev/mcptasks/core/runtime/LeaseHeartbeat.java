package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.LeaseMath;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Keeps one control claim alive while its operation runs: verifies and extends it before the driver is called, then
 * renews it every third of the lease until stopped (after the operation's last write). Each attempt has its own
 * deadline of a third of the lease on the clock's timers, so a store that hangs cannot leave a live remote call
 * unmonitored: the first attempt that is rejected, fails or misses its deadline is reported once to
 * {@code onLoss}, and the heartbeat stops. Attempts never overlap: the next one is scheduled when one succeeds.
 * A renewal waits for its commit on the worker's group commit, not on a thread of its own, so thousands of claims
 * in flight cost no thread each, even when the store hangs.
 */
final class LeaseHeartbeat {
    private final Claim claim;
    private final Duration lease;
    private final Duration interval;
    /** Renewals of this lease: they share store statements with the worker's other renewals of the same lease. */
    private final GroupCommit.Kind<Claim, Boolean> renewals;
    private final TaskRepository repository;
    private final Clock clock;
    private final Executor executor;
    private final RuntimeListener listener;
    private final RuntimeCounters counters;
    private final Consumer<RenewalOutcome> onLoss;
    private final long claimedAtNanos;

    private boolean periodic;
    private boolean stopped;
    private long lastAttemptNanos;
    private Clock.Timer nextAttempt;
    /** The attempt in flight, if any: a confirmation asked for meanwhile joins it (attempts never overlap). */
    private CompletableFuture<RenewalOutcome> inFlight;
    /** Settles when the store call of the latest attempt returned, whatever was decided meanwhile. */
    private CompletableFuture<Void> storeCall = CompletableFuture.completedFuture(null);
    /** The last expiry the store confirmed, on the monotonic clock: start of the confirming attempt + lease. */
    private volatile long confirmedUntilNanos;

    LeaseHeartbeat(Claim claim, long claimedAtNanos, Duration lease, TaskRepository repository, Clock clock,
            Executor executor, RuntimeListener listener, RuntimeCounters counters, Consumer<RenewalOutcome> onLoss) {
        this.claim = claim;
        this.lease = lease;
        this.interval = LeaseMath.renewalInterval(lease);
        this.renewals = BatchedWrites.renew(lease);
        this.repository = repository;
        this.clock = clock;
        this.executor = executor;
        this.listener = listener;
        this.counters = counters;
        this.onLoss = onLoss;
        this.claimedAtNanos = claimedAtNanos;
        this.confirmedUntilNanos = claimedAtNanos + lease.toNanos();
    }

    /**
     * Confirms and extends the claim with the store now: before the driver is called, and between periodic renewals
     * when a request is about to be sent after a slow step. Joins the attempt in flight, else runs the next periodic
     * attempt early, which then counts from now. A non-renewed outcome has already been reported as a loss.
     */
    CompletableFuture<RenewalOutcome> verifyAndExtend() {
        synchronized (this) {
            if (nextAttempt != null && inFlight == null) {
                nextAttempt.cancel();
                nextAttempt = null;
            }
        }
        return attempt();
    }

    /** When the store last confirmed the claim (monotonic): the start of the last renewal that succeeded. */
    long lastConfirmedNanos() {
        return confirmedUntilNanos - lease.toNanos();
    }

    /**
     * Whether the claim statement itself still confirms the claim, so no verification renewal is needed: true while
     * less than a renewal interval has passed since {@code claimedAtNanos} (taken before the claim statement, so the
     * store's expiry is at least {@code claimedAtNanos + lease}). Periodic renewals then start a third of the lease
     * after the claim. An older claim (one that waited for admission) must be verified.
     */
    synchronized boolean confirmedByClaim() {
        if (stopped || clock.nanoTime() - claimedAtNanos >= interval.toNanos()) {
            return false;
        }
        lastAttemptNanos = claimedAtNanos;
        return true;
    }

    /** Starts periodic renewals, a third of the lease after the last attempt began. */
    synchronized void start() {
        if (stopped || periodic) {
            return;
        }
        periodic = true;
        scheduleNext();
    }

    /**
     * Stops renewing; an attempt still running is no longer acted upon. Returns the cleanup of that attempt: it
     * settles when its store call returns (a hung store keeps it open, and the supervisor keeps waiting for it).
     */
    synchronized CompletableFuture<Void> stop() {
        stopped = true;
        if (nextAttempt != null) {
            nextAttempt.cancel();
            nextAttempt = null;
        }
        return storeCall;
    }

    long confirmedUntilNanos() {
        return confirmedUntilNanos;
    }

    private CompletableFuture<RenewalOutcome> attempt() {
        long started = clock.nanoTime();
        CompletableFuture<RenewalOutcome> decision = new CompletableFuture<>();
        CompletableFuture<RenewalOutcome> decided = decision.thenApply(outcome -> decided(outcome));
        if (started >= confirmedUntilNanos) {
            // the lease may already have run out (a claim that waited for admission, a stalled tick): never call
            decision.complete(new RenewalOutcome.Rejected("the lease ran out before it could be renewed"));
            return decided;
        }
        CompletableFuture<Boolean> call;
        synchronized (this) {
            if (stopped) {
                return CompletableFuture.completedFuture(new RenewalOutcome.Rejected("heartbeat stopped"));
            }
            if (inFlight != null) {
                return inFlight; // a confirmation and a periodic attempt that met: one store call answers both
            }
            inFlight = decided;
            lastAttemptNanos = started;
            // queued on the worker's group commit: no thread is held while the renewal waits for its commit
            call = GroupCommittingRepository.async(repository, executor, renewals, claim);
            storeCall = call.handle((ok, error) -> null);
        }
        Clock.Timer deadline = clock.schedule(interval, () -> decision.complete(new RenewalOutcome.Stalled(interval)));
        call.whenComplete((renewed, error) -> {
            deadline.cancel();
            if (error != null) {
                decision.complete(new RenewalOutcome.Failed(unwrap(error)));
            } else if (renewed) {
                decision.complete(new RenewalOutcome.Renewed(started + lease.toNanos()));
            } else {
                decision.complete(new RenewalOutcome.Rejected(
                        "the store no longer holds this claim (expired, replaced, terminal or superseded)"));
            }
        });
        return decided;
    }

    /** Runs on whichever thread decided (a store thread or the clock's timer thread): must not block. */
    private RenewalOutcome decided(RenewalOutcome outcome) {
        boolean loss = false;
        synchronized (this) {
            inFlight = null;
            if (outcome instanceof RenewalOutcome.Renewed renewed) {
                counters.renewals.incrementAndGet();
                confirmedUntilNanos = Math.max(confirmedUntilNanos, renewed.confirmedUntilNanos());
                if (periodic && !stopped) {
                    scheduleNext();
                }
            } else if (!stopped) {
                stopped = true;
                loss = true;
                if (nextAttempt != null) {
                    nextAttempt.cancel();
                }
            }
        }
        listener.renewalDecided(claim.taskId(), outcome);
        if (loss) {
            onLoss.accept(outcome);
        }
        return outcome;
    }

    /**
     * The next periodic attempt: a third of the lease after the last one began, moved <i>earlier</i> to the worker's
     * renewal grid (multiples of {@link #grid} on the monotonic clock). Heartbeats due within one grid step then renew
     * at the same moment, so the group commit hands them to the store as one batched statement instead of one each;
     * renewing up to one step early never weakens the lease (it only renews a little more often).
     */
    private void scheduleNext() {
        long target = lastAttemptNanos + interval.toNanos();
        long step = grid(interval).toNanos();
        long aligned = target - Math.floorMod(target, step);
        long delay = Math.max(0, (aligned > lastAttemptNanos ? aligned : target) - clock.nanoTime());
        nextAttempt = clock.schedule(Duration.ofNanos(delay), this::attempt);
    }

    /** The renewal grid step: a sixteenth of the interval, at most 250 ms, at least 1 ms. */
    static Duration grid(Duration interval) {
        long step = Math.min(interval.toNanos() / 16, Duration.ofMillis(250).toNanos());
        return Duration.ofNanos(Math.max(step, Duration.ofMillis(1).toNanos()));
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
