package dev.mcptasks.bench;

import dev.mcptasks.adapters.sqlite.SqliteSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.sqlite.SQLiteConfig;

/**
 * Work on a SQLite file without any hook in the product's store. Transactions: SQLite writes one commit frame to
 * the WAL per committed write transaction, so the meter counts commit frames. For that the log must not be restarted
 * during the run: the meter writes one row of its own, then holds a read transaction whose snapshot includes that
 * frame, so checkpoints stop at it and SQLite cannot restart the log (the WAL grows for the run's length; throughput
 * is not measured in a metered run). Statements: sqlite-jdbc's trace of every preparation ({@link
 * SqliteStatementTrace}). Not countable from outside: read-only transactions (they write nothing), statement
 * re-executions of a kept prepared statement, and rows changed (they would need sqlite-jdbc's per-connection update
 * and commit listeners on the store's connections, i.e. a connection hook in {@code SqliteSettings}).
 */
final class SqliteWorkMeter implements WorkMeter {
    private final Path wal;
    private final Connection pin;
    private final WalFile start;
    private final SqliteStatementTrace trace;

    SqliteWorkMeter(Path file, SQLiteConfig config, String monitorThreadPrefix) {
        this.wal = Path.of(file + "-wal");
        try {
            pin = config.createConnection(SqliteSettings.URL_PREFIX + file);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open " + file + " to meter it: " + e.getMessage(), e);
        }
        try (Statement statement = pin.createStatement()) {
            // this connection never checkpoints; its own row puts a frame in the log the snapshot below must keep
            statement.execute("PRAGMA wal_autocheckpoint = 0");
            statement.execute("create table if not exists bench_wal_pin (at integer)");
            statement.execute("insert into bench_wal_pin values (1)");
            pin.setAutoCommit(false);
            statement.executeQuery("select count(*) from bench_wal_pin").close();
        } catch (SQLException e) {
            closePin();
            throw new IllegalStateException("cannot pin the WAL of " + file + ": " + e.getMessage(), e);
        }
        start = WalFile.read(wal);
        if (start.frames() == 0) {
            closePin();
            throw new IllegalStateException("cannot meter " + file + ": its WAL holds no frame after the pin's write");
        }
        trace = new SqliteStatementTrace(Set.of(Thread.currentThread().getName()), monitorThreadPrefix);
    }

    @Override
    public WorkCounts read(long monitorTransactions) {
        trace.close();
        WalFile end = WalFile.read(wal);
        if (end.salt1() != start.salt1() || end.frames() < start.frames()) {
            throw new IllegalStateException("the WAL " + wal + " was restarted during the run: commits not countable");
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("transactions", end.commits() - start.commits());
        counters.put("wal_frames", end.frames() - start.frames());
        counters.put("wal_bytes", (end.frames() - start.frames()) * (WalFile.FRAME_HEADER + end.pageSize()));
        Map<String, String> countedAs = new LinkedHashMap<>();
        countedAs.put("transactions", "committed write transactions: commit frames appended to the WAL (read-only"
                + " transactions write none and are not counted)");
        countedAs.put("wal_frames", "pages written to the WAL (one frame per page per commit)");
        countedAs.put("wal_bytes", "WAL frames x (page size + 24-byte frame header)");
        countedAs.put("statements", "sqlite3_prepare and sqlite3_exec calls (sqlite-jdbc TRACE log), every connection"
                + " but the bench monitor's; a kept prepared statement executed again is not seen");
        return new WorkCounts(counters, trace.tally(), countedAs);
    }

    @Override
    public void close() {
        trace.close();
        closePin();
    }

    private void closePin() {
        try {
            pin.close();
        } catch (SQLException e) {
            System.err.println("bench: closing the WAL pin: " + e.getMessage());
        }
    }
}
