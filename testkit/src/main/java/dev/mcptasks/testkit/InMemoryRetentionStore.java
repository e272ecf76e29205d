package dev.mcptasks.testkit;

import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Instant;
import java.util.Iterator;
import java.util.function.Predicate;

/**
 * The {@link RetentionStore} of an {@link InMemoryTaskRepository} (obtain it with
 * {@link InMemoryTaskRepository#retention()}): the same candidates as the SQL stores, each batch under the store's
 * lock.
 */
public final class InMemoryRetentionStore implements RetentionStore {
    private final InMemoryStore store;

    InMemoryRetentionStore(InMemoryStore store) {
        this.store = store;
    }

    @Override
    public int purgeFinished(TaskStatus status, Instant finishedBefore, int limit) {
        RetentionStore.check(status, limit);
        return delete(finished(status, finishedBefore), limit);
    }

    @Override
    public long countFinished(TaskStatus status, Instant finishedBefore) {
        RetentionStore.check(status, 1);
        return count(finished(status, finishedBefore));
    }

    @Override
    public int purgeExpired(Instant now, int limit) {
        RetentionStore.checkLimit(limit);
        return delete(expired(now), limit);
    }

    @Override
    public long countExpired(Instant now) {
        return count(expired(now));
    }

    private static Predicate<TaskRow> finished(TaskStatus status, Instant before) {
        return row -> row.status == status && row.completedAt != null && row.completedAt.isBefore(before)
                && settled(row);
    }

    private static Predicate<TaskRow> expired(Instant now) {
        return row -> row.status.isTerminal() && row.definition.requestedTtlMs() != null
                && !row.definition.createdAt().plusMillis(row.definition.requestedTtlMs()).isAfter(now)
                && settled(row);
    }

    /** No outbox delivery in flight: a dead letter goes with its task, a delivery still to make keeps it. */
    private static boolean settled(TaskRow row) {
        return !NotificationStatus.CLAIMABLE.contains(row.notificationStatus);
    }

    private int delete(Predicate<TaskRow> candidate, int limit) {
        synchronized (store.lock) {
            int deleted = 0;
            Iterator<TaskRow> rows = store.rows.values().iterator();
            while (deleted < limit && rows.hasNext()) {
                TaskRow row = rows.next();
                if (candidate.test(row)) {
                    rows.remove();
                    if (row.remoteTaskId != null) {
                        store.remoteIds.remove(new InMemoryStore.RemoteKey(row.definition.serverName(),
                                row.remoteTaskId));
                    }
                    deleted++;
                }
            }
            return deleted;
        }
    }

    private long count(Predicate<TaskRow> candidate) {
        synchronized (store.lock) {
            return store.rows.values().stream().filter(candidate).count();
        }
    }

}
