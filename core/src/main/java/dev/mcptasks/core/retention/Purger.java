package dev.mcptasks.core.retention;

import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Deletes what the retention policy no longer keeps, one bounded batch per store transaction with a pause between
 * batches, so a purge of a million rows never holds the claim path up for longer than one batch. Every delete is by
 * status and age, so workers may purge at once (each candidate goes once) and a pass interrupted half-way is simply
 * continued by the next one.
 */
public final class Purger {
    private final RetentionStore store;
    private final AuditLog audit;
    private final Clock clock;
    private final int batchSize;
    private final Pacer pacer;

    public Purger(RetentionStore store, AuditLog audit, Clock clock, int batchSize, Pacer pacer) {
        this.store = Objects.requireNonNull(store, "store");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
        }
        this.batchSize = batchSize;
    }

    /**
     * One pass of the policy: each terminal status past its retention, every finished task past its ttl, then the
     * audit records past theirs.
     */
    public PurgeResult purge(RetentionPolicy policy) throws InterruptedException {
        Instant now = clock.now();
        long tasks = 0;
        for (TaskStatus status : TaskStatus.TERMINAL) {
            Duration age = policy.byStatus().get(status);
            if (age != null) {
                Instant cutoff = now.minus(age);
                tasks += inBatches(() -> store.purgeFinished(status, cutoff, batchSize));
            }
        }
        tasks += inBatches(() -> store.purgeExpired(now, batchSize));
        long records = 0;
        if (policy.audit() != null) {
            Instant cutoff = now.minus(policy.audit());
            records = inBatches(() -> audit.purgeBefore(cutoff, batchSize));
        }
        return new PurgeResult(tasks, records);
    }

    /** How many finished tasks of {@code statuses} finished more than {@code olderThan} ago. */
    public long count(Set<TaskStatus> statuses, Duration olderThan) {
        Instant cutoff = clock.now().minus(olderThan);
        long total = 0;
        for (TaskStatus status : ordered(statuses)) {
            total += store.countFinished(status, cutoff);
        }
        return total;
    }

    /** Deletes the finished tasks of {@code statuses} that finished more than {@code olderThan} ago; how many. */
    public long purge(Set<TaskStatus> statuses, Duration olderThan) throws InterruptedException {
        Instant cutoff = clock.now().minus(olderThan);
        long total = 0;
        for (TaskStatus status : ordered(statuses)) {
            total += inBatches(() -> store.purgeFinished(status, cutoff, batchSize));
        }
        return total;
    }

    private static List<TaskStatus> ordered(Set<TaskStatus> statuses) {
        return TaskStatus.TERMINAL.stream().filter(statuses::contains).sorted().toList();
    }

    /** Runs batches until one comes back short, pausing between them. */
    private long inBatches(IntSupplier batch) throws InterruptedException {
        long total = 0;
        int deleted;
        do {
            deleted = batch.getAsInt();
            total += deleted;
            if (deleted == batchSize) {
                pacer.pause();
            }
        } while (deleted == batchSize);
        return total;
    }
}
