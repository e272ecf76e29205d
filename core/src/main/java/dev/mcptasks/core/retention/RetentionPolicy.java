package dev.mcptasks.core.retention;

import dev.mcptasks.domain.TaskStatus;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How long finished tasks and audit records are kept, and how a purge paces itself.
 *
 * @param byStatus how long a task of each terminal status is kept after it finished; a status that is absent is
 *     kept until an operator purges it
 * @param audit how long audit records are kept, or null to keep them
 * @param batchSize rows deleted per transaction
 * @param pause the pause between two batches, which leaves the store to the claim path
 * @param interval how often a worker purges
 */
public record RetentionPolicy(Map<TaskStatus, Duration> byStatus, Duration audit, int batchSize, Duration pause,
        Duration interval) {
    public static final int DEFAULT_BATCH_SIZE = 500;
    public static final Duration DEFAULT_PAUSE = Duration.ofMillis(50);
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);

    public RetentionPolicy {
        Map<TaskStatus, Duration> copy = new EnumMap<>(TaskStatus.class);
        byStatus.forEach((status, age) -> {
            if (!status.isTerminal()) {
                throw new IllegalArgumentException("only finished tasks have a retention, not " + status.wireName());
            }
            copy.put(status, requirePositive(age, status.wireName()));
        });
        byStatus = Map.copyOf(copy);
        if (audit != null) {
            requirePositive(audit, "audit");
        }
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
        }
        Objects.requireNonNull(pause, "pause");
        if (pause.isNegative()) {
            throw new IllegalArgumentException("pause must not be negative, was " + pause);
        }
        requirePositive(interval, "interval");
    }

    /** The defaults: completed and cancelled tasks 7 days, failed 30 days, audit records 365 days. */
    public static RetentionPolicy defaults() {
        return new RetentionPolicy(Map.of(TaskStatus.COMPLETED, Duration.ofDays(7), TaskStatus.FAILED,
                Duration.ofDays(30), TaskStatus.CANCELLED, Duration.ofDays(7)), Duration.ofDays(365),
                DEFAULT_BATCH_SIZE, DEFAULT_PAUSE, DEFAULT_INTERVAL);
    }

    public Optional<Duration> retentionOf(TaskStatus status) {
        return Optional.ofNullable(byStatus.get(status));
    }

    private static Duration requirePositive(Duration age, String what) {
        Objects.requireNonNull(age, what);
        if (age.isNegative() || age.isZero()) {
            throw new IllegalArgumentException(what + " retention must be positive, was " + age);
        }
        return age;
    }
}
