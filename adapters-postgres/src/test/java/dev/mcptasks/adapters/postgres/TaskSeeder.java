package dev.mcptasks.adapters.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Bulk-loads rows straight into the tasks table with {@code generate_series}, for load and plan tests. */
final class TaskSeeder {
    private final PostgresSettings settings;

    TaskSeeder(PostgresSettings settings) {
        this.settings = settings;
    }

    /**
     * Finished rows, as a long-lived table accumulates them: terminal, outbox delivered, and (the worst case for a
     * plain index on the due time) a due time in the past, ordered before every live row.
     */
    void terminal(String prefix, int count, Instant at) throws SQLException {
        insert(prefix, count, at, "completed", at, false, "delivered", 1, 1);
    }

    /** Rows of one control phase, due at {@code due}: pending (submit), working (poll), or working + cancel. */
    void due(String prefix, int count, String status, boolean cancelRequested, Instant due) throws SQLException {
        insert(prefix, count, due, status, due, cancelRequested, "none", 0, 0);
    }

    /** Rows with an undelivered event version, due for notification at {@code due}. */
    void notificationDue(String prefix, int count, Instant due) throws SQLException {
        insert(prefix, count, due, "completed", null, false, "pending", 1, 0);
    }

    private void insert(String prefix, int count, Instant at, String status, Instant nextControlAt,
            boolean cancelRequested, String notificationStatus, long eventVersion, long notifiedVersion)
            throws SQLException {
        boolean terminal = status.equals("completed");
        String sql = "INSERT INTO tasks (id, server_name, tool_name, arguments, driver, created_at, status,"
                + " updated_at, completed_at, next_control_at, cancel_requested_at, remote_task_id, result,"
                + " notification_status, event_version, notified_version, dispatch_version, event_payload,"
                + " event_fingerprint, next_notification_at)"
                + " SELECT ? || lpad(g::text, 8, '0'), 'seed', 'tool', '{}', 'mcp-tasks', ?, ?, ?, ?, ?, ?,"
                + " CASE WHEN ? = 'pending' THEN NULL ELSE ? || g END, ?, ?, ?, ?, ?, ?, ?, ?"
                + " FROM generate_series(1, ?) AS g";
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement insert = connection.prepareStatement(sql)) {
            OffsetDateTime time = OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
            int i = 1;
            insert.setString(i++, prefix);
            insert.setObject(i++, time);
            insert.setString(i++, status);
            insert.setObject(i++, time);
            insert.setObject(i++, terminal ? time : null);
            insert.setObject(i++, nextControlAt == null ? null : OffsetDateTime.ofInstant(nextControlAt,
                    ZoneOffset.UTC));
            insert.setObject(i++, cancelRequested ? time : null);
            insert.setString(i++, status);
            insert.setString(i++, "remote-" + prefix);
            insert.setString(i++, terminal ? "{\"ok\":true}" : null);
            insert.setString(i++, notificationStatus);
            insert.setLong(i++, eventVersion);
            insert.setLong(i++, notifiedVersion);
            insert.setLong(i++, notifiedVersion);
            insert.setString(i++, eventVersion > 0 ? "{\"type\":\"task.status\"}" : null);
            insert.setString(i++, eventVersion > 0 ? "f".repeat(64) : null);
            insert.setObject(i++, eventVersion > 0 ? time : null);
            insert.setInt(i, count);
            insert.executeUpdate();
        }
    }

    void analyze() throws SQLException {
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE tasks");
            statement.execute("ANALYZE workers");
        }
    }
}
