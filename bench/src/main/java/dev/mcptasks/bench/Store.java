package dev.mcptasks.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/** Plain-JDBC reads of the task table for the monitor: one statement each, no MyBatis in the way. */
final class Store {
    private Store() {}

    static long count(DataSource pool, String sql) {
        return first(pool, sql, null, rows -> rows.getLong(1));
    }

    /** A count bounded by one text parameter; with a null bound (nothing unfinished) it is 0. */
    static long count(DataSource pool, String sql, String bound) {
        return bound == null ? 0 : first(pool, sql, bound, rows -> rows.getLong(1));
    }

    /** The single text value {@code sql} selects (null for SQL NULL). */
    static String text(DataSource pool, String sql) {
        return first(pool, sql, null, rows -> rows.getString(1));
    }

    /** Reads the first row of {@code sql}, with {@code parameter} bound to its one placeholder when not null. */
    private static <T> T first(DataSource pool, String sql, String parameter, Column<T> column) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            if (parameter != null) {
                statement.setString(1, parameter);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return column.read(rows);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Keeps the first {@code keep} pending tasks by id and deletes the others (a phase that needs fewer). */
    static void keepPending(DataSource pool, int keep) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement("delete from tasks where status = 'pending'"
                        + " and id not in (select id from tasks where status = 'pending' order by id limit ?)")) {
            statement.setInt(1, keep);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("keep " + keep + " pending tasks: " + e.getMessage(), e);
        }
    }

    private interface Column<T> {
        T read(ResultSet rows) throws SQLException;
    }

    static Map<String, Long> statusCounts(DataSource pool) {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select status, count(*) from tasks group by status")) {
            while (rows.next()) {
                counts.put(rows.getString(1), rows.getLong(2));
            }
            return counts;
        } catch (SQLException e) {
            throw new IllegalStateException("status counts: " + e.getMessage(), e);
        }
    }
}
