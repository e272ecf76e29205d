package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claim scan of one control phase: reserves every free slot before reading candidates (so concurrent scans of
 * this worker never admit more calls than slots), claims at most that many rows, excluding rows whose earlier
 * operation has not settled, hands each claimed row to the supervisor and returns the unused reservations. A busy
 * store is retried: a failed scan changed nothing.
 */
final class ClaimScanner {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimScanner.class);
    /** Names the new claim's phase and the phase of the expired lease it took over (they differ after a crash). */
    static final String RECOVERED = "task {}: claimed for {}, taking over an expired {} lease (its owner died or"
            + " stalled)";

    /** Builds the operation for one claimed row. */
    interface OperationFactory {
        ControlOperation create(ClaimedTask claimed, long claimedAtNanos);
    }

    private final WorkerId worker;
    private final RuntimeSettings settings;
    private final TaskRepository repository;
    private final Clock clock;
    private final CapacitySlots slots;
    private final PrincipalShares shares;
    private final BatchSupervisor supervisor;
    private final RuntimeCounters counters;
    private final OperationFactory operations;
    private final Retry retry = Retry.of("claim-scan", RetryConfig.custom()
            .maxAttempts(3)
            .waitDuration(Duration.ofMillis(50))
            .retryOnException(e -> e instanceof TransientRepositoryException)
            .build());

    ClaimScanner(WorkerId worker, RuntimeSettings settings, TaskRepository repository, Clock clock,
            CapacitySlots slots, PrincipalShares shares, BatchSupervisor supervisor, RuntimeCounters counters,
            OperationFactory operations) {
        this.shares = shares;
        this.worker = worker;
        this.settings = settings;
        this.repository = repository;
        this.clock = clock;
        this.slots = slots;
        this.supervisor = supervisor;
        this.counters = counters;
        this.operations = operations;
    }

    /**
     * Hands one claimed row, holding one reserved slot, to the supervisor; false when its operation could not even
     * be built (then its claim is released here and its slot stays unused). Never throws: one row's failure must not
     * strand its siblings, which the same scan has already claimed. Also the way in of a claim taken by a create of
     * this process ({@link WorkerRuntime#submitClaims}).
     */
    boolean admit(ClaimedTask task, long claimedAtNanos) {
        ControlOperation operation;
        try {
            operation = operations.create(task, claimedAtNanos);
        } catch (RuntimeException e) {
            LOG.warn("task {}: could not build its {} operation; releasing the claim: {}", task.claim().taskId(),
                    task.claim().phase().wireName(), e.toString());
            releaseQuietly(task);
            return false;
        }
        counters.claims.incrementAndGet();
        if (task.recovered()) {
            counters.recoveries.incrementAndGet();
            // DEBUG: the operator's line for a takeover is the event on dev.mcptasks.events (EventLoggingRepository)
            LOG.debug(RECOVERED, task.claim().taskId(), task.claim().phase().wireName(),
                    task.expiredPhase().wireName());
        }
        // the supervisor owns the operation from here, including a start the executor rejects (released there)
        supervisor.launch(operation);
        return true;
    }

    private void releaseQuietly(ClaimedTask task) {
        try {
            repository.releaseCancelled(task.claim());
        } catch (RuntimeException e) {
            LOG.warn("task {}: releasing the claim failed; it stays until its lease expires: {}",
                    task.claim().taskId(), e.toString());
        }
    }

    /**
     * Claims and launches due rows of {@code phase}; returns how many slots it reserved and how many claims it
     * admitted (fewer admitted than reserved: everything due was taken).
     */
    ScanResult scan(ClaimPhase phase) {
        int reserved = slots.reserve(slots.capacity());
        if (reserved == 0) {
            return ScanResult.NO_SLOTS; // every slot is held (possibly by uncooperative cleanup): new calls wait
        }
        int admitted = 0;
        int heldBack = 0;
        try {
            long claimedAtNanos = clock.nanoTime();
            // liveness is judged by the store's clock: this worker's clock never decides whether another is alive
            // a principal whose calls hold their share of the slots gets no more from a submit scan
            ControlClaimRequest request = new ControlClaimRequest(phase, worker, reserved, settings.lease(),
                    settings.workerStaleAfter(), supervisor.unsettled(),
                    phase == ClaimPhase.SUBMIT ? shares.atShare() : Set.of());
            List<ClaimedTask> claimed = retry.executeSupplier(() -> repository.claimControl(request));
            for (ClaimedTask task : claimed) {
                if (admitted + heldBack == reserved) {
                    LOG.warn("the store returned more {} claims than the limit {}; releasing task {}",
                            phase.wireName(), reserved, task.claim().taskId());
                    releaseQuietly(task);
                    continue;
                }
                if (phase == ClaimPhase.SUBMIT && shares.full(task.task().definition().principal())) {
                    // its principal reached its share within this scan: due again at once, for a later scan (which
                    // leaves the principal out) or another worker; the rows behind it are scanned again
                    releaseQuietly(task);
                    heldBack++;
                    continue;
                }
                if (admit(task, claimedAtNanos)) {
                    admitted++;
                }
            }
        } finally {
            slots.giveBack(reserved - admitted);
        }
        return new ScanResult(reserved, admitted, heldBack);
    }
}
