package dev.mcptasks.adapters.sqlite;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the columns of one statement's rows by name, with the positions of the names resolved once from the
 * statement's metadata. sqlite-jdbc resolves a column name afresh for every result set by a case-insensitive scan of
 * all columns, which for the ~50 columns of a task row cost more than reading the row. Valid for as long as the
 * statement's columns keep their positions: the writer session's {@code SELECT *} of tasks, whose columns a migration
 * could only extend (SQLite adds columns at the end), and a database with a schema newer than this build is refused
 * when it opens.
 */
final class ColumnReader {
    private final Map<String, Integer> positions;
    private ResultSet rows;

    private ColumnReader(Map<String, Integer> positions) {
        this.positions = positions;
    }

    static ColumnReader of(ResultSetMetaData metadata) throws SQLException {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 1; i <= metadata.getColumnCount(); i++) {
            positions.putIfAbsent(metadata.getColumnLabel(i).toLowerCase(Locale.ROOT), i);
        }
        return new ColumnReader(positions);
    }

    /**
     * A reader of {@code rows} with the same column positions, for another thread's rows of the same statement (this
     * one reads whatever rows {@link #at} gave it last, so it is not shared between threads).
     */
    ColumnReader reading(ResultSet rows) {
        return new ColumnReader(positions).at(rows);
    }

    /** Reads the current row of {@code rows} from now on. */
    ColumnReader at(ResultSet rows) {
        this.rows = rows;
        return this;
    }

    String string(String column) throws SQLException {
        return rows.getString(position(column));
    }

    long number(String column) throws SQLException {
        return rows.getLong(position(column));
    }

    int integer(String column) throws SQLException {
        return rows.getInt(position(column));
    }

    /** A nullable integer column: null stays null. */
    Long nullableNumber(String column) throws SQLException {
        long value = rows.getLong(position(column));
        return rows.wasNull() ? null : value;
    }

    private int position(String column) throws SQLException {
        Integer position = positions.get(column);
        if (position == null) {
            throw new SQLException("the statement has no column " + column);
        }
        return position;
    }
}
