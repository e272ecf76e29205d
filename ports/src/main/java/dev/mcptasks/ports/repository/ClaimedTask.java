package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import java.util.Objects;

/**
 * A claim just taken, with the row as it stands right after the claim.
 *
 * @param expiredPhase the phase of the earlier, expired control lease the row still carried when it was claimed
 *     (its previous owner died or stalled), or null when the lease was free. It may differ from this claim's phase:
 *     a cancel claim takes over the expired submit lease of a worker that died while creating the task.
 * @param attemptRecorded true when the claim was taken by the row's create ({@link CreateClaim}), which recorded
 *     its first create request as attempted: its {@code submit_attempted_at} is this claim's own, not a sign that an
 *     earlier worker sent one
 */
public record ClaimedTask(Claim claim, TaskRecord task, ClaimPhase expiredPhase, boolean attemptRecorded) {

    public ClaimedTask {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(task, "task");
    }

    /** A claim taken by a claim scan. */
    public ClaimedTask(Claim claim, TaskRecord task, ClaimPhase expiredPhase) {
        this(claim, task, expiredPhase, false);
    }

    /** A claim of a row whose lease was free (never held, or cleared by a release). */
    public ClaimedTask(Claim claim, TaskRecord task) {
        this(claim, task, null);
    }

    /**
     * The claim a row created with a {@link CreateClaim} carries (see {@link TaskRepository#create}).
     *
     * @throws IllegalArgumentException when the row does not carry a submit lease
     */
    public static ClaimedTask created(TaskRecord row) {
        TaskRecord.Lease lease = row.lease();
        if (lease == null || lease.phase() != ClaimPhase.SUBMIT || lease.owner() == null || lease.token() == null
                || lease.expiresAt() == null) {
            throw new IllegalArgumentException("task " + row.id().value() + " was not created claimed for submit");
        }
        TaskId id = row.id();
        return new ClaimedTask(new Claim(id, ClaimPhase.SUBMIT, lease.owner(), lease.token(), lease.expiresAt()), row,
                null, true);
    }

    /** True when the claim took over an expired lease: the runtime counts these as recoveries. */
    public boolean recovered() {
        return expiredPhase != null;
    }
}
