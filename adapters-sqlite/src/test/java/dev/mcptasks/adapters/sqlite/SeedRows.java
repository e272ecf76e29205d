package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.domain.TaskId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Bulk inserts of finished rows straight through JDBC: one transaction, one prepared batch. */
final class SeedRows {
    private SeedRows() {}

    static Connection connect(Path file) throws SQLException {
        return DriverManager.getConnection(SqliteSettings.URL_PREFIX + file);
    }

    /** Inserts {@code count} completed rows with ids {@code done-000000...}. */
    static void terminal(Path file, int count, long createdAt) throws SQLException {
        try (Connection connection = connect(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tasks (id, server_name,"
                    + " tool_name, arguments, driver, created_at, status, updated_at, completed_at, remote_task_id,"
                    + " result, notification_status) VALUES (?, 'srv', 'tool', '{}', 'mcp-tasks', ?, 'completed', ?,"
                    + " ?, ?, '{\"content\":[]}', 'delivered')")) {
                for (int i = 0; i < count; i++) {
                    insert.setString(1, String.format("done-%06d", i));
                    insert.setLong(2, createdAt);
                    insert.setLong(3, createdAt);
                    insert.setLong(4, createdAt);
                    insert.setString(5, "remote-" + i);
                    insert.addBatch();
                    if (i % 10_000 == 9_999) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }

    /** Inserts {@code count} pending rows due at {@code now}, ids {@code t00000...}, as {@code create} would. */
    static List<TaskId> pending(Path file, int count, long now) throws SQLException {
        List<TaskId> ids = new ArrayList<>();
        try (Connection connection = connect(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tasks (id, server_name,"
                    + " tool_name, arguments, driver, created_at, status, updated_at, next_control_at)"
                    + " VALUES (?, 'srv', 'tool', '{}', 'mcp-tasks', ?, 'pending', ?, ?)")) {
                for (int i = 0; i < count; i++) {
                    TaskId id = TaskId.of(String.format("t%05d", i));
                    insert.setString(1, id.value());
                    insert.setLong(2, now);
                    insert.setLong(3, now);
                    insert.setLong(4, now);
                    insert.addBatch();
                    ids.add(id);
                }
                insert.executeBatch();
            }
            connection.commit();
        }
        return ids;
    }

    /** Inserts {@code count} working rows with remote ids, due for a poll at {@code now}, ids {@code poll-000000...}. */
    static void duePolls(Path file, int count, long now) throws SQLException {
        try (Connection connection = connect(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tasks (id, server_name,"
                    + " tool_name, arguments, driver, created_at, status, updated_at, next_control_at,"
                    + " remote_task_id, protocol_version) VALUES (?, 'srv', 'tool', '{}', 'mcp-tasks', ?, 'working',"
                    + " ?, ?, ?, '2025-11-25')")) {
                for (int i = 0; i < count; i++) {
                    insert.setString(1, String.format("poll-%06d", i));
                    insert.setLong(2, now);
                    insert.setLong(3, now);
                    insert.setLong(4, now);
                    insert.setString(5, "remote-poll-" + i);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }
}
