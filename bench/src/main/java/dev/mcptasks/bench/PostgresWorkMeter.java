package dev.mcptasks.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Work on one PostgreSQL database, from the server's own statistics: {@code pg_stat_database} (transactions and
 * rows), the WAL position (server-wide: one scenario runs at a time) and {@code pg_stat_statements} (executions per
 * statement, every role but the bench monitor's). Read from the {@code postgres} database, so the meter's own
 * queries are not counted.
 */
final class PostgresWorkMeter implements WorkMeter {
    /** Opens a connection to the server's {@code postgres} database. */
    interface Admin {
        Connection connect() throws SQLException;
    }

    private record Snapshot(Map<String, Long> database, Map<String, Long> callsByQuery, Map<String, String> texts) {}

    private final Admin admin;
    private final String name;
    private final boolean statements;
    private final Snapshot start;

    PostgresWorkMeter(Admin admin, String name, boolean statements) {
        this.admin = admin;
        this.name = name;
        this.statements = statements;
        this.start = snapshot();
    }

    @Override
    public WorkCounts read(long monitorTransactions) {
        try {
            Thread.sleep(700); // the statistics collector hears of a backend's commits at most every 500 ms
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Snapshot end = snapshot();
        Map<String, Long> counters = new LinkedHashMap<>();
        for (Map.Entry<String, Long> counter : end.database().entrySet()) {
            long delta = counter.getValue() - start.database().getOrDefault(counter.getKey(), 0L);
            counters.put(counter.getKey(), counter.getKey().equals("transactions") ? delta - monitorTransactions
                    : delta);
        }
        StatementTally tally = null;
        if (statements) {
            tally = new StatementTally();
            for (Map.Entry<String, Long> calls : end.callsByQuery().entrySet()) {
                long delta = calls.getValue() - start.callsByQuery().getOrDefault(calls.getKey(), 0L);
                if (delta > 0) {
                    tally.add(end.texts().get(calls.getKey()), delta);
                }
            }
        }
        Map<String, String> countedAs = new LinkedHashMap<>();
        countedAs.put("transactions", "pg_stat_database.xact_commit of the database, less one per monitor poll"
                + " (read-only transactions included)");
        countedAs.put("rollbacks", "pg_stat_database.xact_rollback");
        countedAs.put("rows_inserted", "pg_stat_database.tup_inserted (rows_updated, rows_deleted likewise)");
        countedAs.put("wal_bytes", "pg_current_wal_lsn() advance, server-wide");
        countedAs.put("statements", statements ? "pg_stat_statements calls (executions) in the database, every role"
                + " but the bench monitor's; the BEGIN/COMMIT pgjdbc sends are not among them (see transactions)"
                : "not counted: pg_stat_statements could not be loaded");
        return new WorkCounts(counters, tally, countedAs);
    }

    private Snapshot snapshot() {
        try (Connection connection = admin.connect(); Statement statement = connection.createStatement()) {
            statement.execute("select pg_stat_clear_snapshot()");
            Map<String, Long> database = new LinkedHashMap<>();
            try (ResultSet rows = statement.executeQuery("select xact_commit, xact_rollback, tup_inserted,"
                    + " tup_updated, tup_deleted, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"
                    + " from pg_stat_database where datname = '" + name + "'")) {
                if (rows.next()) {
                    database.put("transactions", rows.getLong(1));
                    database.put("rollbacks", rows.getLong(2));
                    database.put("rows_inserted", rows.getLong(3));
                    database.put("rows_updated", rows.getLong(4));
                    database.put("rows_deleted", rows.getLong(5));
                    database.put("wal_bytes", rows.getLong(6));
                }
            }
            Map<String, Long> calls = new HashMap<>();
            Map<String, String> texts = new HashMap<>();
            if (statements) {
                try (PreparedStatement query = connection.prepareStatement("select s.queryid, s.userid, s.calls,"
                        + " s.query from pg_stat_statements s join pg_database d on d.oid = s.dbid"
                        + " where d.datname = ? and s.userid <> (select oid from pg_roles where rolname = ?)")) {
                    query.setString(1, name);
                    query.setString(2, PostgresBench.MONITOR_ROLE);
                    try (ResultSet rows = query.executeQuery()) {
                        while (rows.next()) {
                            String key = rows.getLong(1) + "/" + rows.getLong(2);
                            calls.merge(key, rows.getLong(3), Long::sum);
                            texts.put(key, rows.getString(4));
                        }
                    }
                }
            }
            return new Snapshot(database, calls, texts);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the statistics of database " + name + ": " + e.getMessage(),
                    e);
        }
    }

    @Override
    public void close() {}
}
