package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;

/**
 * A claim just taken, with the row as it stands right after the claim.
 *
 * @param recovered true when the row still carried an earlier, expired control lease when it was claimed (its
 *     previous owner died or stalled): the runtime counts these as recoveries. Repositories that cannot tell report
 *     false.
 */
public record ClaimedTask(Claim claim, TaskRecord task, boolean recovered) {

    /** A claim of a row whose lease was free (never held, or cleared by a release). */
    public ClaimedTask(Claim claim, TaskRecord task) {
        this(claim, task, false);
    }
}
