package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskHistory;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The claim history on the task database (V011): the claim scan appends its events with {@link #append}, inside its
 * own write transaction, as one JDBC batch on a statement prepared once per writer session; reads go to the reader
 * pool. The table's trigger deletes a task's events with the task.
 */
final class SqliteTaskHistory implements TaskHistory {
    private static final String INSERT = "INSERT INTO task_events"
            + " (task_id, at, kind, phase, worker, previous_owner, previous_phase) VALUES (?, ?, ?, ?, ?, ?, ?)";

    private final SqliteDatabase database;

    SqliteTaskHistory(SqliteDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Appends {@code events} in the transaction open on {@code session}: one batch, nothing when empty; a failure is
     * translated as every store error of the database at {@code path} is.
     */
    static void append(WriterSession session, List<TaskEvent> events, String path) {
        if (events.isEmpty()) {
            return;
        }
        try {
            insert(session, events);
        } catch (SQLException e) {
            throw SqliteErrors.translate("record " + events.size() + " claims in the history", path, e);
        }
    }

    private static void insert(WriterSession session, List<TaskEvent> events) throws SQLException {
        PreparedStatement insert = session.prepared(INSERT);
        for (TaskEvent event : events) {
            insert.setString(1, event.taskId().value());
            insert.setLong(2, event.at().toEpochMilli());
            insert.setString(3, event.kind().wireName());
            insert.setString(4, event.phase().wireName());
            insert.setString(5, event.worker().value());
            insert.setString(6, event.previousOwner() == null ? null : event.previousOwner().value());
            insert.setString(7, event.previousPhase() == null ? null : event.previousPhase().wireName());
            insert.addBatch();
        }
        insert.executeBatch();
    }

    @Override
    public List<TaskEvent> history(TaskId id) {
        Objects.requireNonNull(id, "id");
        List<Map<String, Object>> rows = database.read("read the history of task " + id.value(), HistoryMapper.class,
                mapper -> mapper.selectHistory(id.value()));
        return rows.stream().map(row -> event(id, row)).toList();
    }

    private static TaskEvent event(TaskId id, Map<String, Object> row) {
        Object previousOwner = row.get("previous_owner");
        Object previousPhase = row.get("previous_phase");
        return new TaskEvent(id, Instant.ofEpochMilli(((Number) row.get("at")).longValue()),
                TaskEvent.Kind.fromWire((String) row.get("kind")), ClaimPhase.fromWire((String) row.get("phase")),
                WorkerId.of((String) row.get("worker")),
                previousOwner == null ? null : WorkerId.of((String) previousOwner),
                previousPhase == null ? null : ClaimPhase.fromWire((String) previousPhase));
    }
}
