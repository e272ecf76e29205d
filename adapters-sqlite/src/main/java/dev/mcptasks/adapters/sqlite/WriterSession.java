package dev.mcptasks.adapters.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;

/**
 * The writer connection with one MyBatis session on it, kept open for many transactions so that the session's
 * REUSE executor prepares each statement once, not once per transaction (re-preparing, borrowing the connection and
 * building a session were a third of the worker's CPU). Used by one thread at a time, under the database's writer
 * lock. The row reads of the hot path ({@link #row}) run the mapper's own {@code selectTask} SQL on a statement of
 * their own and map the row by hand; the batched writes run their {@link DirectStatement}s on statements of their own,
 * prepared once per session.
 */
final class WriterSession implements AutoCloseable {
    private final SqlSession session;
    private final Connection connection;
    private final TaskMapper mapper;
    private final Statement control;
    private final PreparedStatement selectTask;
    private final Map<DirectStatement, PreparedStatement> direct = new HashMap<>();
    private final Map<String, PreparedStatement> plain = new HashMap<>();
    private ColumnReader selectTaskColumns; // resolved on the first row read

    WriterSession(SqlSession session, String selectTaskSql) throws SQLException {
        this.session = session;
        this.connection = session.getConnection();
        this.mapper = session.getMapper(TaskMapper.class);
        this.control = connection.createStatement();
        this.selectTask = connection.prepareStatement(selectTaskSql);
    }

    TaskMapper mapper() {
        return mapper;
    }

    /** Another mapper of the same session (the credential store's), on the same connection and transaction. */
    <M> M mapper(Class<M> type) {
        return session.getMapper(type);
    }

    Connection connection() {
        return connection;
    }

    /**
     * SQLite's {@code PRAGMA data_version} on this connection: it changes when another connection commits (another
     * process, or another database object on the same file), never for this connection's own commits.
     */
    long dataVersion() throws SQLException {
        try (ResultSet version = control.executeQuery("PRAGMA data_version")) {
            version.next();
            return version.getLong(1);
        }
    }

    /** The row with this id, or null. */
    TaskRow row(String id) {
        try {
            selectTask.setString(1, id);
            try (ResultSet rows = selectTask.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                if (selectTaskColumns == null) {
                    selectTaskColumns = ColumnReader.of(rows.getMetaData());
                }
                return TaskRow.read(selectTaskColumns.at(rows));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading task " + id + " failed: " + e.getMessage(), e);
        }
    }

    /** The statement of {@code update} on this connection, prepared on first use. */
    PreparedStatement prepared(DirectStatement update) throws SQLException {
        PreparedStatement statement = direct.get(update);
        if (statement == null) {
            statement = connection.prepareStatement(update.sql());
            direct.put(update, statement);
        }
        return statement;
    }

    /** A static statement of plain JDBC on this connection (the history's insert), prepared on first use. */
    PreparedStatement prepared(String sql) throws SQLException {
        PreparedStatement statement = plain.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            plain.put(sql, statement);
        }
        return statement;
    }

    /** BEGIN, COMMIT or ROLLBACK: statements without parameters or rows. */
    void execute(String sql) throws SQLException {
        control.execute(sql);
    }

    /** Closes the session's statements; the connection is the caller's to return or evict. */
    @Override
    public void close() {
        try {
            control.close();
            selectTask.close();
            for (PreparedStatement statement : direct.values()) {
                statement.close();
            }
            for (PreparedStatement statement : plain.values()) {
                statement.close();
            }
        } catch (SQLException e) {
            // closing statements of a connection about to be closed or evicted: nothing to keep
        }
        session.close();
    }
}
