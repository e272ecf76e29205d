package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import java.util.List;

/**
 * A task's claim history, read for the operator (the dashboard's timeline): an append-only record the store writes in
 * the same transaction as the claims themselves, one batched insert per claim batch, and deletes with the task.
 *
 * <p>What is recorded: every submit and cancel claim, and every claim that took over an expired lease, whatever its
 * phase, each with its worker and the store's time; a takeover also names the owner and phase of the lease it took
 * over. A poll claim of a free lease is not recorded: a long task is claimed once per poll (every few seconds for
 * hours), and its last poll is on the row already ({@code lastPolledAt}, {@code pollAttemptCount}).
 */
@FunctionalInterface
public interface TaskHistory {
    /** A store that keeps no history. */
    TaskHistory NONE = id -> List.of();

    /** The task's events in the order they were recorded (oldest first); empty for an unknown or purged task. */
    List<TaskEvent> history(TaskId id);
}
