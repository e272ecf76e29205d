package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.postgres.PostgresTaskRepositories;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An embedded PostgreSQL (io.zonky.test) started with durable settings (fsync and synchronous_commit on: unlike the
 * test server, a benchmark must pay for commits) and pg_stat_statements loaded; one database per scenario.
 */
final class PostgresBench implements BenchDatabase {
    /** The role of the bench's monitor: pg_stat_statements counts per role, so its polls are left out. */
    static final String MONITOR_ROLE = "bench_monitor";

    private final EmbeddedPostgres postgres;
    private final String version;
    private final boolean statements;

    private PostgresBench(EmbeddedPostgres postgres, boolean statements) {
        this.postgres = postgres;
        this.version = first("SHOW server_version");
        this.statements = statements;
        admin("CREATE ROLE " + MONITOR_ROLE + " LOGIN SUPERUSER");
        if (statements) {
            admin("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
    }

    static PostgresBench start() {
        try {
            return new PostgresBench(builder()
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("pg_stat_statements.max", "10000")
                    .setServerConfig("pg_stat_statements.track_utility", "on")
                    .start(), true);
        } catch (IOException | RuntimeException e) {
            System.err.println("bench: embedded PostgreSQL did not start with pg_stat_statements (" + e
                    + "); statements per task will not be counted");
        }
        try {
            return new PostgresBench(builder().start(), false);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("embedded PostgreSQL did not start (as root, zonky needs 'unshare -U'): "
                    + e, e);
        }
    }

    private static EmbeddedPostgres.Builder builder() {
        // zonky's builder turns fsync, synchronous_commit and full_page_writes off by default: back on
        return EmbeddedPostgres.builder()
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_connections", "300")
                .setPGStartupWait(Duration.ofSeconds(60));
    }

    @Override
    public String key() {
        return "postgres";
    }

    @Override
    public Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("server", "embedded (io.zonky.test) PostgreSQL " + version);
        settings.put("fsync", first("SHOW fsync"));
        settings.put("synchronous_commit", first("SHOW synchronous_commit"));
        settings.put("full_page_writes", first("SHOW full_page_writes"));
        settings.put("shared_buffers", first("SHOW shared_buffers"));
        settings.put("pg_stat_statements", statements ? "loaded (statements per task counted)" : "not loaded");
        settings.put("mcp_tasks_store", "PostgresSettings.of (shipped pool size)");
        settings.put("db_scheduler_pool", "HikariCP, 12 connections");
        return settings;
    }

    @Override
    public CloseableTaskRepository openStore(String name, Clock clock, IdGenerator ids) {
        ensureDatabase(name);
        return PostgresTaskRepositories.open(PostgresSettings.of(url(name), "postgres", null), clock, ids,
                FencedWriteHook.NONE);
    }

    @Override
    public HikariDataSource pool(String name, int size) {
        ensureDatabase(name);
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(url(name));
        hikari.setUsername("postgres");
        hikari.setPoolName("bench-pg-" + name);
        hikari.setMaximumPoolSize(size);
        return new HikariDataSource(hikari);
    }

    @Override
    public HikariDataSource monitor(String name) {
        ensureDatabase(name);
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(url(name));
        hikari.setUsername(MONITOR_ROLE);
        hikari.setPoolName("bench-monitor-" + name);
        hikari.setMaximumPoolSize(1);
        return new HikariDataSource(hikari);
    }

    @Override
    public WorkMeter meter(String name) {
        ensureDatabase(name);
        return new PostgresWorkMeter(this::adminConnection, name, statements);
    }

    @Override
    public void copy(String template, String name) {
        admin("DROP DATABASE IF EXISTS " + name);
        admin("CREATE DATABASE " + name + " TEMPLATE " + template);
    }

    /** Creates an empty database {@code name} unless it exists. */
    void ensureDatabase(String name) {
        try (Connection connection = adminConnection();
                PreparedStatement exists = connection.prepareStatement("select 1 from pg_database where datname = ?")) {
            exists.setString(1, name);
            try (ResultSet rows = exists.executeQuery()) {
                if (!rows.next()) {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("CREATE DATABASE " + name);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Map<String, Long> counters(String name) {
        // the statistics collector hears of a backend's work at most every 500 ms and when it exits: callers close
        // their pools first and wait a little. WAL is server-wide: only one scenario runs at a time.
        try (Connection connection = adminConnection(); Statement statement = connection.createStatement()) {
            statement.execute("select pg_stat_clear_snapshot()");
            try (ResultSet rows = statement.executeQuery("select xact_commit, tup_inserted, tup_updated,"
                    + " tup_deleted, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint from pg_stat_database"
                    + " where datname = '" + name + "'")) {
                if (!rows.next()) {
                    return Map.of();
                }
                Map<String, Long> counters = new LinkedHashMap<>();
                counters.put("commits", rows.getLong(1));
                counters.put("rows_inserted", rows.getLong(2));
                counters.put("rows_updated", rows.getLong(3));
                counters.put("rows_deleted", rows.getLong(4));
                counters.put("wal_bytes", rows.getLong(5));
                return counters;
            }
        } catch (SQLException e) {
            return Map.of();
        }
    }

    @Override
    public String dbSchedulerDdl() {
        // db-scheduler's postgresql_tables.sql
        return """
            create table scheduled_tasks (
              task_name text not null,
              task_instance text not null,
              task_data bytea,
              execution_time timestamp with time zone not null,
              picked boolean not null,
              picked_by text,
              last_success timestamp with time zone,
              last_failure timestamp with time zone,
              consecutive_failures int,
              last_heartbeat timestamp with time zone,
              version bigint not null,
              priority smallint,
              primary key (task_name, task_instance));
            create index execution_time_idx on scheduled_tasks (execution_time);
            create index last_heartbeat_idx on scheduled_tasks (last_heartbeat);
            create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)
            """;
    }

    @Override
    public Map<String, String> appDatabase(String name) {
        ensureDatabase(name);
        return Map.of("url", url(name), "user", "postgres");
    }

    @Override
    public void settle(String name) {
        try (Connection connection = DriverManager.getConnection(url(name), "postgres", null);
                Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE");
        } catch (SQLException e) {
            throw new IllegalStateException("ANALYZE of " + name + ": " + e.getMessage(), e);
        }
    }

    String url(String name) {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + name;
    }

    private void admin(String sql) {
        try (Connection connection = adminConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    private String first(String sql) {
        try (Connection connection = adminConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : "?";
        } catch (SQLException e) {
            return "unknown: " + e.getMessage();
        }
    }

    Connection adminConnection() throws SQLException {
        return DriverManager.getConnection(url("postgres"), "postgres", null);
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            System.err.println("bench: embedded PostgreSQL did not stop cleanly: " + e.getMessage());
        }
    }
}
