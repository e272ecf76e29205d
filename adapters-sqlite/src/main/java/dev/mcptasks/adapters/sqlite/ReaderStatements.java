package dev.mcptasks.adapters.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sqlite.SQLiteConnection;

/**
 * Statements of the hot reads prepared once per reader connection, not once per read: the pool hands out a proxy per
 * borrow, so statements are kept by the SQLite connection under it, and prepared on that connection (the pool closes
 * the statements of a proxy when it is returned). A statement is used only by the thread that borrowed its
 * connection, one read at a time, and its rows are closed before the connection goes back. Statements of a connection
 * the pool has retired are dropped when a new connection first reads.
 */
final class ReaderStatements {
    private final Map<SQLiteConnection, Map<String, PreparedStatement>> byConnection = new ConcurrentHashMap<>();

    /** The statement of {@code sql} on the connection under {@code borrowed}, prepared on first use. */
    PreparedStatement prepared(Connection borrowed, String sql) throws SQLException {
        SQLiteConnection connection = borrowed.unwrap(SQLiteConnection.class);
        Map<String, PreparedStatement> statements = byConnection.get(connection);
        if (statements == null) {
            byConnection.keySet().removeIf(ReaderStatements::retired);
            statements = new ConcurrentHashMap<>();
            byConnection.put(connection, statements);
        }
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /** Drops the statements of the connection under {@code borrowed} (a read on it failed). */
    void forget(Connection borrowed) {
        try {
            Map<String, PreparedStatement> statements = byConnection.remove(borrowed.unwrap(SQLiteConnection.class));
            if (statements != null) {
                for (PreparedStatement statement : statements.values()) {
                    statement.close();
                }
            }
        } catch (SQLException e) {
            // a connection that cannot even be unwrapped or whose statements cannot close: nothing left to keep
        }
    }

    /** How many connections have statements here (tests). */
    int connections() {
        return byConnection.size();
    }

    private static boolean retired(SQLiteConnection connection) {
        try {
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }
}
