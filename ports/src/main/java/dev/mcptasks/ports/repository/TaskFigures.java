package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Aggregate figures of the store for metrics, read by grouped queries (never row by row).
 *
 * @param counts tasks per status and server (only pairs that have tasks)
 * @param earliestDue per control phase ({@code submit}, {@code poll}, {@code cancel}), the earliest
 *     {@code next_control_at} of the rows in that phase; a phase without rows is absent
 * @param outbox rows per notification status other than {@code none}
 */
public record TaskFigures(List<Count> counts, Map<ClaimPhase, Instant> earliestDue,
        Map<NotificationStatus, Long> outbox) {
    public TaskFigures {
        counts = List.copyOf(counts);
        earliestDue = Map.copyOf(earliestDue);
        outbox = Map.copyOf(outbox);
    }

    /** The number of tasks of one server in one status. */
    public record Count(TaskStatus status, String server, long tasks) {
        public Count {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(server, "server");
        }
    }
}
