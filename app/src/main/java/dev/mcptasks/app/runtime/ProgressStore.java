package dev.mcptasks.app.runtime;

import dev.mcptasks.domain.Claim;

/**
 * Where a direct call's progress is stored as its task's status message, under the submit claim and without ending
 * it. The write needs a store method that {@code TaskRepository} does not have yet (proposed:
 * {@code recordProgress(Claim, String)}, fenced by id, owner, token, phase, unexpired lease and nonterminal row,
 * changing only {@code status_message} and {@code updated_at}); until it exists the runtime runs with
 * {@link #NOT_STORED} and progress is received, throttled and dropped.
 */
@FunctionalInterface
interface ProgressStore {
    /** No store write exists yet: progress is dropped (at debug level). */
    ProgressStore NOT_STORED = (claim, message) -> false;

    /** Stores {@code statusMessage} under {@code claim}; false when the fence refused it (nothing changed). */
    boolean recordProgress(Claim claim, String statusMessage);
}
