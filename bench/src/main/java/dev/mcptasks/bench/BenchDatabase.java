package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.util.Map;

/**
 * One database engine under test. Every scenario gets its own database (a file, or a PostgreSQL database) by name,
 * usually a copy of a template holding the pre-inserted tasks, so no scenario sees another's rows.
 */
interface BenchDatabase extends AutoCloseable {
    /** "sqlite" or "postgres" (JSON keys). */
    String key();

    /** The settings that matter to the figures: durability, pools, version. */
    Map<String, Object> settings();

    /** The product's repository over database {@code name}, with the product's shipped store settings. */
    CloseableTaskRepository openStore(String name, Clock clock, IdGenerator ids);

    /** A plain pool on database {@code name} (db-scheduler, monitoring, set-up). */
    HikariDataSource pool(String name, int size);

    /**
     * A pool of one connection on database {@code name} for the bench's monitor: its statements are left out of a
     * {@link WorkMeter}'s statement counts (another role on PostgreSQL, other threads on SQLite).
     */
    HikariDataSource monitor(String name);

    /** Starts counting the work done on database {@code name}; the caller's thread counts as the monitor's. */
    WorkMeter meter(String name);

    /** Creates database {@code name} as a copy of {@code template} (which must have no open connections). */
    void copy(String template, String name);

    /**
     * The engine's work counters so far on database {@code name} (committed transactions, rows inserted, updated
     * and deleted, WAL bytes), where the engine counts them; empty where it does not.
     */
    Map<String, Long> counters(String name);

    /**
     * Brings database {@code name} to the state a deployment's reaches in its first minute, after a warm-up wrote
     * its first rows: PostgreSQL's autovacuum has analyzed the new tables by then (its naptime is a minute), and until
     * it has, a connection keeps the generic plans it made while the table was empty (a scan of every row for a
     * batch's few). SQLite keeps no such state: nothing to do.
     */
    default void settle(String name) {}

    /** The db-scheduler table, as its own scripts create it for this engine. */
    String dbSchedulerDdl();

    @Override
    void close();

    /** The {@code database} object of an mcp-tasks configuration on database {@code name}, created if needed. */
    Map<String, String> appDatabase(String name);
}
