package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Instant;
import java.util.Objects;

/**
 * The {@link RetentionStore} on the task database: each batch is one auto-committed statement, so it holds its rows'
 * locks for one bounded delete and skips rows another transaction holds; the caller paces the batches.
 */
final class PostgresRetentionStore implements RetentionStore {
    private final PostgresStore store;

    PostgresRetentionStore(PostgresStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public int purgeFinished(TaskStatus status, Instant finishedBefore, int limit) {
        RetentionStore.check(status, limit);
        return store.autoCommit("purge " + status.wireName() + " tasks finished before " + finishedBefore,
                RetentionMapper.class, mapper -> mapper.deleteFinished(status.wireName(), Times.millis(finishedBefore),
                        limit));
    }

    @Override
    public long countFinished(TaskStatus status, Instant finishedBefore) {
        RetentionStore.check(status, 1);
        return store.autoCommit("count " + status.wireName() + " tasks finished before " + finishedBefore,
                RetentionMapper.class, mapper -> mapper.countFinished(status.wireName(),
                        Times.millis(finishedBefore)));
    }

    @Override
    public int purgeExpired(Instant now, int limit) {
        RetentionStore.checkLimit(limit);
        return store.autoCommit("purge finished tasks past their ttl", RetentionMapper.class,
                mapper -> mapper.deleteExpired(Times.millis(now), limit));
    }

    @Override
    public long countExpired(Instant now) {
        return store.autoCommit("count finished tasks past their ttl", RetentionMapper.class,
                mapper -> mapper.countExpired(Times.millis(now)));
    }
}
