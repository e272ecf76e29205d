package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.adapters.sqlite.SqliteSettings.Synchronous;
import dev.mcptasks.adapters.sqlite.SqliteSettings;
import dev.mcptasks.adapters.sqlite.SqliteTaskRepositories;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite files in WAL mode under one directory; the product's store opens them with its shipped settings except
 * {@code synchronous}, which is the bench's choice for both schedulers.
 */
final class SqliteBench implements BenchDatabase {
    static final String MONITOR_POOL = "bench-monitor-";

    private final Path dir;
    private final Synchronous synchronous;
    private final String key;

    SqliteBench(Path dir) {
        this(dir, Synchronous.FULL);
    }

    SqliteBench(Path dir, Synchronous synchronous) {
        this(dir, synchronous, "sqlite");
    }

    /** @param key the figures' database name: {@code sqlite}, or {@code sqlite-normal} for the comparison's variant */
    SqliteBench(Path dir, Synchronous synchronous, String key) {
        this.dir = dir;
        this.synchronous = synchronous;
        this.key = key;
        try {
            Files.createDirectories(dir);
            // a run starts from nothing: a template left by an earlier run would hold its tasks too
            try (var files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.getFileName().toString().contains(".db")).toList()) {
                    Files.delete(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("directory", dir.toString());
        settings.put("journal_mode", "WAL");
        settings.put("mcp_tasks_store", "SqliteSettings: busy timeout " + SqliteSettings.DEFAULT_BUSY_TIMEOUT
                + ", reader pool " + SqliteSettings.DEFAULT_READER_POOL_SIZE + ", one writer, synchronous "
                + synchronous + " (SqliteSettings.synchronous)");
        settings.put("db_scheduler_pool", "HikariCP over sqlite-jdbc, WAL, busy_timeout 5000 ms");
        try (HikariDataSource pool = pool("settings-probe", 1); Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            settings.put("synchronous", synchronous + " for both schedulers (db-scheduler's connections report"
                    + " PRAGMA synchronous = " + first(statement, "PRAGMA synchronous") + ": 1 NORMAL, 2 FULL)");
            settings.put("sqlite_version", first(statement, "select sqlite_version()"));
        } catch (SQLException e) {
            settings.put("synchronous", "unknown: " + e.getMessage());
        }
        return settings;
    }

    private static String first(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : "?";
        }
    }

    @Override
    public CloseableTaskRepository openStore(String name, Clock clock, IdGenerator ids) {
        return SqliteTaskRepositories.open(new SqliteSettings(SqliteSettings.URL_PREFIX + file(name),
                SqliteSettings.DEFAULT_BUSY_TIMEOUT, SqliteSettings.DEFAULT_READER_POOL_SIZE, synchronous), clock, ids,
                FencedWriteHook.NONE);
    }

    @Override
    public Map<String, String> appDatabase(String name) {
        return Map.of("url", SqliteSettings.URL_PREFIX + file(name), "synchronous", synchronous.name());
    }

    @Override
    public HikariDataSource pool(String name, int size) {
        return pool("bench-sqlite-" + name, name, size);
    }

    @Override
    public HikariDataSource monitor(String name) {
        // its own pool name: the statement trace leaves out the threads of this pool (they open its connections)
        return pool(MONITOR_POOL + name, name, 1);
    }

    @Override
    public WorkMeter meter(String name) {
        return new SqliteWorkMeter(file(name), config(), MONITOR_POOL);
    }

    private SQLiteConfig config() {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setBusyTimeout(5_000);
        config.setSynchronous(synchronous == Synchronous.FULL ? SQLiteConfig.SynchronousMode.FULL
                : SQLiteConfig.SynchronousMode.NORMAL);
        return config;
    }

    private HikariDataSource pool(String poolName, String name, int size) {
        SQLiteDataSource dataSource = new SQLiteDataSource(config());
        dataSource.setUrl(SqliteSettings.URL_PREFIX + file(name));
        HikariConfig hikari = new HikariConfig();
        hikari.setDataSource(dataSource);
        hikari.setPoolName(poolName);
        hikari.setMaximumPoolSize(size);
        hikari.setConnectionTimeout(30_000);
        return new HikariDataSource(hikari);
    }

    @Override
    public void copy(String template, String name) {
        try {
            Files.copy(file(template), file(name), StandardCopyOption.REPLACE_EXISTING);
            for (String suffix : new String[] {"-wal", "-shm"}) {
                Path side = Path.of(file(template) + suffix);
                Path target = Path.of(file(name) + suffix);
                Files.deleteIfExists(target);
                if (Files.exists(side)) {
                    Files.copy(side, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + template + " to " + name, e);
        }
    }

    @Override
    public Map<String, Long> counters(String name) {
        return Map.of();
    }

    @Override
    public String dbSchedulerDdl() {
        // db-scheduler ships no SQLite script; this is its generic one with SQLite types (instants as INTEGER ms,
        // as sqlite-jdbc writes timestamps)
        return """
            create table scheduled_tasks (
              task_name text not null,
              task_instance text not null,
              task_data blob,
              execution_time integer not null,
              picked boolean not null,
              picked_by text,
              last_success integer,
              last_failure integer,
              consecutive_failures int,
              last_heartbeat integer,
              version bigint not null,
              priority smallint,
              primary key (task_name, task_instance));
            create index execution_time_idx on scheduled_tasks (execution_time);
            create index last_heartbeat_idx on scheduled_tasks (last_heartbeat);
            create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)
            """;
    }

    Path file(String name) {
        return dir.resolve(name + ".db");
    }

    @Override
    public void close() {
        // files stay under target/ for inspection; the next run replaces them
    }
}
