package dev.mcptasks.testkit;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;

/** Reads and the workers table of the in-memory repository. */
final class InMemoryQueries {
    private static final Comparator<WorkerRecord> OLDEST_FIRST =
            Comparator.comparing(WorkerRecord::startedAt).thenComparing(worker -> worker.id().value());

    private final InMemoryStore store;

    InMemoryQueries(InMemoryStore store) {
        this.store = store;
    }

    Optional<TaskRecord> find(TaskId id) {
        Objects.requireNonNull(id, "id");
        synchronized (store.lock) {
            return Optional.ofNullable(store.rows.get(id)).map(TaskRow::toRecord);
        }
    }

    List<TaskRecord> list(TaskQuery query) {
        synchronized (store.lock) {
            NavigableMap<TaskId, TaskRow> older = query.before() == null ? store.rows.descendingMap()
                    : store.rows.headMap(query.before(), false).descendingMap();
            List<TaskRecord> page = new ArrayList<>();
            for (TaskRow row : older.values()) {
                if (page.size() == query.limit()) {
                    break;
                }
                if ((query.status() == null || row.status == query.status())
                        && (query.serverName() == null || row.definition.serverName().equals(query.serverName()))
                        && (query.principal() == null || query.principal().equals(row.definition.principal()))) {
                    page.add(row.toRecord());
                }
            }
            return page;
        }
    }

    Map<TaskStatus, Long> countByStatus() {
        Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
        for (TaskStatus status : TaskStatus.values()) {
            counts.put(status, 0L);
        }
        synchronized (store.lock) {
            for (TaskRow row : store.rows.values()) {
                counts.merge(row.status, 1L, Long::sum);
            }
        }
        return counts;
    }

    /** The figures as the SQL stores group them: the phase terms are those of the claim statements. */
    dev.mcptasks.ports.repository.TaskFigures figures() {
        Map<java.util.List<Object>, Long> counts = new java.util.LinkedHashMap<>();
        Map<dev.mcptasks.domain.ClaimPhase, java.time.Instant> due = new EnumMap<>(
                dev.mcptasks.domain.ClaimPhase.class);
        Map<dev.mcptasks.domain.NotificationStatus, Long> outbox = new EnumMap<>(
                dev.mcptasks.domain.NotificationStatus.class);
        synchronized (store.lock) {
            for (TaskRow row : store.rows.values()) {
                counts.merge(java.util.List.of(row.status, row.definition.serverName()), 1L, Long::sum);
                dev.mcptasks.domain.ClaimPhase phase = controlPhase(row);
                if (phase != null && row.nextControlAt != null) {
                    due.merge(phase, row.nextControlAt, (a, b) -> a.isBefore(b) ? a : b);
                }
                if (dev.mcptasks.domain.NotificationStatus.CLAIMABLE.contains(row.notificationStatus)
                        || row.notificationStatus == dev.mcptasks.domain.NotificationStatus.DEAD_LETTER) {
                    outbox.merge(row.notificationStatus, 1L, Long::sum);
                }
            }
        }
        java.util.List<dev.mcptasks.ports.repository.TaskFigures.Count> list = new java.util.ArrayList<>();
        counts.forEach((key, n) -> list.add(new dev.mcptasks.ports.repository.TaskFigures.Count(
                (TaskStatus) key.get(0), (String) key.get(1), n)));
        return new dev.mcptasks.ports.repository.TaskFigures(list, due, outbox);
    }

    private static dev.mcptasks.domain.ClaimPhase controlPhase(TaskRow row) {
        if (row.status.isTerminal()) {
            return null;
        }
        if (row.cancelRequestedAt != null) {
            return dev.mcptasks.domain.ClaimPhase.CANCEL;
        }
        if (row.status == TaskStatus.PENDING || (row.awaitsInputBeforeTask() && row.inputResponsesJson != null)) {
            return dev.mcptasks.domain.ClaimPhase.SUBMIT;
        }
        return row.remoteTaskId != null ? dev.mcptasks.domain.ClaimPhase.POLL : null;
    }

    void heartbeat(WorkerInfo worker) {
        Objects.requireNonNull(worker, "worker");
        synchronized (store.lock) {
            WorkerRecord known = store.workers.get(worker.id());
            WorkerRecord refreshed = known == null
                    ? new WorkerRecord(worker.id(), worker.host(), worker.pid(),
                            InMemoryStore.millis(worker.startedAt()), store.now())
                    : new WorkerRecord(known.id(), known.host(), known.pid(), known.startedAt(), store.now());
            store.workers.put(worker.id(), refreshed);
        }
    }

    /** Liveness by the store's clock, like the claim scan's endpoint rule. */
    boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(staleAfter, "staleAfter");
        synchronized (store.lock) {
            WorkerRecord known = store.workers.get(worker);
            return known != null && !known.lastSeenAt().isBefore(store.now().minus(staleAfter));
        }
    }

    void ageWorkerHeartbeats(Duration by) {
        synchronized (store.lock) {
            store.workers.replaceAll((id, w) -> new WorkerRecord(w.id(), w.host(), w.pid(), w.startedAt(),
                    w.lastSeenAt().minus(by)));
        }
    }

    void removeWorker(WorkerId worker) {
        synchronized (store.lock) {
            store.workers.remove(worker);
        }
    }

    List<WorkerRecord> workers() {
        synchronized (store.lock) {
            List<WorkerRecord> all = new ArrayList<>(store.workers.values());
            all.sort(OLDEST_FIRST);
            return all;
        }
    }
}
