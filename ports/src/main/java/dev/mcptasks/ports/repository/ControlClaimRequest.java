package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A claim scan for one control phase.
 *
 * @param phase submit, poll or cancel
 * @param worker the claiming worker
 * @param limit at most this many rows (the worker's free capacity slots)
 * @param lease the lease duration
 * @param workerStaleAfter a worker whose last heartbeat is older than this, by the store's clock, is not alive; rows
 *     whose process-local endpoint belongs to another live worker are not claimed (poll and cancel). A duration, not
 *     an instant: the claiming worker's own clock never takes part in judging another worker's liveness
 * @param excluded rows never to claim in this scan (this worker's draining calls)
 * @param atShare principals whose tasks a submit scan does not take: their calls hold their fair share of the
 *     worker's slots already (rows of no principal are always eligible; poll and cancel scans ignore it)
 */
public record ControlClaimRequest(ClaimPhase phase, WorkerId worker, int limit, Duration lease,
        Duration workerStaleAfter, Set<TaskId> excluded, Set<String> atShare) {

    /** A scan that takes every principal's rows. */
    public ControlClaimRequest(ClaimPhase phase, WorkerId worker, int limit, Duration lease,
            Duration workerStaleAfter, Set<TaskId> excluded) {
        this(phase, worker, limit, lease, workerStaleAfter, excluded, Set.of());
    }

    public ControlClaimRequest {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(workerStaleAfter, "workerStaleAfter");
        excluded = Set.copyOf(excluded);
        atShare = Set.copyOf(atShare);
        if (!phase.isControl()) {
            throw new DomainException("a control claim needs a control phase, not " + phase);
        }
        if (limit < 0) {
            throw new DomainException("claim limit must not be negative");
        }
        if (lease.isNegative() || lease.isZero()) {
            throw new DomainException("lease must be positive");
        }
        if (workerStaleAfter.isNegative() || workerStaleAfter.isZero()) {
            throw new DomainException("workerStaleAfter must be positive");
        }
    }
}
