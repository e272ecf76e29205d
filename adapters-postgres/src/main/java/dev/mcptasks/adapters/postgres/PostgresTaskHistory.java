package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskHistory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The claim history on the task database (V11). The claim statement itself appends the events of its claims (one
 * insert per claim batch, in the same statement and transaction); this reads them, and the table's statement trigger
 * deletes a task's events with the task.
 */
final class PostgresTaskHistory implements TaskHistory {
    private final PostgresStore store;

    PostgresTaskHistory(PostgresStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public List<TaskEvent> history(TaskId id) {
        Objects.requireNonNull(id, "id");
        List<Map<String, Object>> rows = store.autoCommit("read the history of task " + id.value(),
                HistoryMapper.class, mapper -> mapper.selectHistory(id.value()));
        return rows.stream().map(row -> event(id, row)).toList();
    }

    private static TaskEvent event(TaskId id, Map<String, Object> row) {
        Object previousOwner = row.get("previous_owner");
        Object previousPhase = row.get("previous_phase");
        return new TaskEvent(id, Instant.ofEpochMilli(((Number) row.get("at_ms")).longValue()),
                TaskEvent.Kind.fromWire((String) row.get("kind")), ClaimPhase.fromWire((String) row.get("phase")),
                WorkerId.of((String) row.get("worker")),
                previousOwner == null ? null : WorkerId.of((String) previousOwner),
                previousPhase == null ? null : ClaimPhase.fromWire((String) previousPhase));
    }
}
