package dev.mcptasks.testkit;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * The shared state of the in-memory repository: rows, the remote-id index and workers behind one lock, which plays
 * the part of a database transaction (every read-check-write below happens atomically under it).
 */
final class InMemoryStore {
    /** Unique (server_name, remote_task_id), as the SQL schemas declare it. */
    record RemoteKey(String serverName, String remoteTaskId) {}

    final Object lock = new Object();
    final TreeMap<TaskId, TaskRow> rows = new TreeMap<>();
    final Map<RemoteKey, TaskId> remoteIds = new HashMap<>();
    final Map<WorkerId, WorkerRecord> workers = new HashMap<>();

    /**
     * The undo record of the transaction open on this thread ({@code inOneTransaction}): each row as it was before
     * the transaction first changed it, plus the remote-id index; null when no transaction is open.
     */
    private final ThreadLocal<Undo> undo = new ThreadLocal<>();

    private record Undo(Map<TaskId, TaskRow> rows, Map<RemoteKey, TaskId> remoteIds, Set<TaskId> inserted) {}

    private final Clock clock;
    private final IdGenerator ids;
    private final FencedWriteHook hook;

    InMemoryStore(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.hook = Objects.requireNonNull(hook, "hook");
    }

    IdGenerator ids() {
        return ids;
    }

    /** "Now" of a statement, at the stored (millisecond) precision. */
    Instant now() {
        return millis(clock.now());
    }

    static Instant millis(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    static Instant expiry(Instant now, Duration lease) {
        return millis(now.plus(lease));
    }

    /**
     * One fenced conditional write: the hook runs first, outside the lock (so a test can hold a stale writer right
     * before its UPDATE), then the fence is evaluated and the change applied atomically. The change may throw
     * before it mutates anything (a duplicate remote id), which leaves the row whole.
     */
    boolean fenced(FencedWrite write, TaskId id, BiPredicate<TaskRow, Instant> fence,
            BiConsumer<TaskRow, Instant> change) {
        hook.beforeFencedWrite(write, id);
        synchronized (lock) {
            TaskRow row = rows.get(id);
            Instant now = now();
            if (row == null || !fence.test(row, now)) {
                return false;
            }
            Undo open = undo.get();
            if (open != null) {
                open.rows().putIfAbsent(id, row.copy());
            }
            change.accept(row, now);
            return true;
        }
    }

    /** Adds a new row (under the lock); a transaction open on this thread removes it again when it rolls back. */
    void insert(TaskRow row) {
        synchronized (lock) {
            rows.put(row.id, row);
            Undo open = undo.get();
            if (open != null) {
                open.inserted().add(row.id);
            }
        }
    }

    /**
     * Runs {@code work} under the lock as one transaction: when it throws, every row it changed and the remote-id
     * index are put back as they were. A nested call joins the outer transaction.
     */
    <T> T inOneTransaction(Supplier<T> work) {
        synchronized (lock) {
            if (undo.get() != null) {
                return work.get();
            }
            Undo open = new Undo(new HashMap<>(), new HashMap<>(remoteIds), new HashSet<>());
            undo.set(open);
            try {
                return work.get();
            } catch (RuntimeException | Error e) {
                rows.putAll(open.rows());
                open.inserted().forEach(rows::remove);
                remoteIds.clear();
                remoteIds.putAll(open.remoteIds());
                throw e;
            } finally {
                undo.remove();
            }
        }
    }
}
