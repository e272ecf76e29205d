package dev.mcptasks.core.service;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A worker of this process that takes new tasks' submit claims at their create ({@link CreateClaim}), so a call
 * made through this process is sent by its own worker at once: one commit before the request instead of three, and
 * no claim scan in between.
 */
public interface SubmitClaims {
    /** No worker here: every task is created pending, for any worker's scan. */
    SubmitClaims NONE = principal -> Optional.empty();

    /**
     * A claim for one new task of {@code principal} (null: none), holding one of the worker's slots until the
     * reservation is {@linkplain Reservation#created used} or {@linkplain Reservation#abandoned abandoned}; empty
     * when the worker is not running, has no free slot, or the principal's calls hold their share of the slots (the
     * task is then created pending, and found by a scan).
     */
    Optional<Reservation> reserve(String principal);

    /** One reserved claim; exactly one of its methods is called, once. */
    interface Reservation {
        CreateClaim claim();

        /**
         * Runs {@code create} (the claimed row's insert and whatever must commit with it) in the worker's group
         * commit, so it shares a commit with the worker's other writes (other calls' results, renewals), and
         * returns or throws its own outcome once that commit is done. {@code row} is the new task's id: the create
         * writes no other task's row, so the worker's writes of other rows queued beside it may share statements
         * across it.
         */
        <T> T commit(TaskId row, Supplier<T> create);

        /** The row was committed under {@link #claim()}: the worker starts its create request now. */
        void created(TaskRecord row);

        /** The create did not commit: the slot is free again (a row that did commit is taken over at expiry). */
        void abandoned();
    }
}
