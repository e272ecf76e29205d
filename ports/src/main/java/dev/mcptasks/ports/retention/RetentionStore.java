package dev.mcptasks.ports.retention;

import dev.mcptasks.domain.TaskStatus;
import java.time.Instant;

/**
 * Removes finished tasks from the store, a bounded batch per call. Each call is one short transaction of its own and
 * deletes by status and age only, so calls from several workers at once are safe (a row deleted twice is deleted
 * once) and none holds the claim path up for longer than one batch. A task is a candidate only once it is terminal
 * and has no outbox delivery in flight (a dead letter goes with its task); a task that is not terminal is never
 * removed, whatever its age.
 */
public interface RetentionStore {
    /**
     * Deletes up to {@code limit} tasks in the terminal {@code status} that finished before {@code finishedBefore}.
     *
     * @return how many were deleted; fewer than {@code limit} means none is left
     * @throws IllegalArgumentException when {@code status} is not terminal or {@code limit} is not positive
     */
    int purgeFinished(TaskStatus status, Instant finishedBefore, int limit);

    /** How many tasks {@link #purgeFinished} would delete now, all batches together. */
    long countFinished(TaskStatus status, Instant finishedBefore);

    /**
     * Deletes up to {@code limit} terminal tasks whose requested ttl (counted from creation, as MCP counts it) ended
     * at or before {@code now}, whatever the retention of their status.
     *
     * @return how many were deleted; fewer than {@code limit} means none is left
     */
    int purgeExpired(Instant now, int limit);

    /** How many tasks {@link #purgeExpired} would delete now, all batches together. */
    long countExpired(Instant now);

    /** Checks a status and a batch size as every implementation must. */
    static void check(TaskStatus status, int limit) {
        if (!status.isTerminal()) {
            throw new IllegalArgumentException("only finished tasks are purged, not " + status.wireName());
        }
        checkLimit(limit);
    }

    /** Checks a batch size as every implementation must. */
    static void checkLimit(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
    }
}
