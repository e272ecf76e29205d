package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;

/**
 * A claim just taken, with the row as it stands right after the claim.
 *
 * @param expiredPhase the phase of the earlier, expired control lease the row still carried when it was claimed
 *     (its previous owner died or stalled), or null when the lease was free. It may differ from this claim's phase:
 *     a cancel claim takes over the expired submit lease of a worker that died while creating the task.
 */
public record ClaimedTask(Claim claim, TaskRecord task, ClaimPhase expiredPhase) {

    /** A claim of a row whose lease was free (never held, or cleared by a release). */
    public ClaimedTask(Claim claim, TaskRecord task) {
        this(claim, task, null);
    }

    /** True when the claim took over an expired lease: the runtime counts these as recoveries. */
    public boolean recovered() {
        return expiredPhase != null;
    }
}
