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
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** A count bounded by one text parameter; with a null bound (nothing unfinished) it is 0. */
    static long count(DataSource pool, String sql, String bound) {
        if (bound == null) {
            return 0;
        }
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, bound);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** The single text value {@code sql} selects (null for SQL NULL). */
    static String text(DataSource pool, String sql) {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
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
