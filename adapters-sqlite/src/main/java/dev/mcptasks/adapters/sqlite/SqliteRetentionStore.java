package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Instant;
import java.util.Objects;

/**
 * The {@link RetentionStore} on the task database. Each batch is one writer transaction of its own (SQLite has one
 * writer), so a batch holds the claim path up for the time of one bounded delete and no longer; the caller paces the
 * batches. Counts read on the reader pool, beside the writer.
 */
final class SqliteRetentionStore implements RetentionStore {
    private final SqliteDatabase database;

    SqliteRetentionStore(SqliteDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    @Override
    public int purgeFinished(TaskStatus status, Instant finishedBefore, int limit) {
        RetentionStore.check(status, limit);
        return database.write("purge " + status.wireName() + " tasks finished before " + finishedBefore,
                session -> session.mapper(RetentionMapper.class).deleteFinished(status.wireName(),
                        finishedBefore.toEpochMilli(), limit));
    }

    @Override
    public long countFinished(TaskStatus status, Instant finishedBefore) {
        RetentionStore.check(status, 1);
        return database.read("count " + status.wireName() + " tasks finished before " + finishedBefore,
                RetentionMapper.class, mapper -> mapper.countFinished(status.wireName(),
                        finishedBefore.toEpochMilli()));
    }

    @Override
    public int purgeExpired(Instant now, int limit) {
        RetentionStore.checkLimit(limit);
        return database.write("purge finished tasks past their ttl",
                session -> session.mapper(RetentionMapper.class).deleteExpired(now.toEpochMilli(), limit));
    }

    @Override
    public long countExpired(Instant now) {
        return database.read("count finished tasks past their ttl", RetentionMapper.class,
                mapper -> mapper.countExpired(now.toEpochMilli()));
    }
}
