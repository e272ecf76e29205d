package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.TaskId;
import java.time.Instant;
import java.util.Objects;

/**
 * A page of dead letters (rows whose outbox is {@code dead_letter}), newest first: ordered by when the version died,
 * then by id, both descending.
 *
 * @param limit page size (1..1000)
 * @param before only dead letters after this one in that order (the last of the previous page), or null for the first
 *     page
 */
public record DeadLetterQuery(int limit, Cursor before) {
    public static final int MAX_LIMIT = TaskQuery.MAX_LIMIT;

    public DeadLetterQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new DomainException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
    }

    /** The first page. */
    public static DeadLetterQuery first(int limit) {
        return new DeadLetterQuery(limit, null);
    }

    /** The page after {@code last}, the last dead letter of this page. */
    public DeadLetterQuery after(TaskRecord last) {
        return new DeadLetterQuery(limit, Cursor.of(last));
    }

    /**
     * A position in the order.
     *
     * @param deadLetteredAt when that version died ({@link TaskRecord.Outbox#nextAt()} of a dead letter)
     * @param id the task
     */
    public record Cursor(Instant deadLetteredAt, TaskId id) {
        public Cursor {
            Objects.requireNonNull(deadLetteredAt, "deadLetteredAt");
            Objects.requireNonNull(id, "id");
        }

        public static Cursor of(TaskRecord deadLetter) {
            return new Cursor(deadLetter.outbox().nextAt(), deadLetter.id());
        }
    }
}
