package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.RepositoryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Applies the versioned schema scripts in order, each recorded in {@code schema_version}. The version is first read
 * without any lock: an up-to-date database (every start but the first) is left alone, so a command that only reads
 * never waits for, nor fails on, a write lock another process holds. Only when there is something to migrate does it
 * take the write lock with {@code BEGIN IMMEDIATE} and read the version again under it, so two processes starting
 * together apply each version once.
 */
final class SchemaMigrator {
    /** The scripts, in version order: version n is element n-1. Never edit a released script; add a new one. */
    static final List<String> SCRIPTS = List.of("V001__tasks_and_workers.sql", "V002__task_creator.sql",
            "V003__input_rounds.sql", "V004__per_phase_claim_indexes.sql", "V005__credentials.sql",
            "V006__task_principal.sql", "V007__endpoint_session.sql",
            "V008__retention_and_audit.sql", "V009__trace_context.sql", "V010__front_sessions.sql",
            "V011__task_history.sql", "V012__audit_append_only.sql", "V013__first_claim_on_row.sql");

    private static final String RESOURCE_DIR = "dev/mcptasks/adapters/sqlite/migrations/";

    private final DataSource writer;
    private final String path;
    private final Clock clock;
    private final Runnable beforeWriteLock;

    SchemaMigrator(DataSource writer, String path, Clock clock) {
        this(writer, path, clock, () -> {});
    }

    /** {@code beforeWriteLock} runs after the unlocked read found work to do (tests race a peer there). */
    SchemaMigrator(DataSource writer, String path, Clock clock, Runnable beforeWriteLock) {
        this.writer = writer;
        this.path = path;
        this.clock = clock;
        this.beforeWriteLock = beforeWriteLock;
    }

    /** Brings the schema to the newest version; returns that version. */
    int migrate() {
        try (Connection connection = writer.getConnection()) {
            // autocommit read: in WAL mode it sees the last committed version beside any writer, and locks nothing
            if (checkVersion(versionWithoutLock(connection)) == SCRIPTS.size()) {
                return SCRIPTS.size();
            }
            beforeWriteLock.run();
            SqliteDatabase.execute(connection, "BEGIN IMMEDIATE");
            try {
                int applied = apply(connection);
                SqliteDatabase.execute(connection, "COMMIT");
                return applied;
            } catch (SQLException | RuntimeException e) {
                // a failed migration fails the start-up, which closes the whole pool, connection included
                SqliteDatabase.rollbackQuietly(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            throw SqliteErrors.translate("schema migration", path, e);
        }
    }

    private int apply(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                    + " version INTEGER PRIMARY KEY NOT NULL, script TEXT NOT NULL, applied_at INTEGER NOT NULL)");
        }
        // read again under the lock: a peer may have migrated between the unlocked read and BEGIN IMMEDIATE
        int current = checkVersion(currentVersion(connection));
        for (int version = current + 1; version <= SCRIPTS.size(); version++) {
            String script = SCRIPTS.get(version - 1);
            try (Statement statement = connection.createStatement()) {
                for (String sql : statements(load(script))) {
                    statement.execute(sql);
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO schema_version (version, script, applied_at) VALUES (?, ?, ?)")) {
                insert.setInt(1, version);
                insert.setString(2, script);
                insert.setLong(3, clock.now().toEpochMilli());
                insert.executeUpdate();
            }
        }
        return SCRIPTS.size();
    }

    private int checkVersion(int current) {
        if (current > SCRIPTS.size()) {
            throw new RepositoryException("SQLite database '" + path + "' has schema version " + current
                    + ", newer than the newest this build knows (" + SCRIPTS.size() + ")");
        }
        return current;
    }

    /** The recorded version, 0 for a database without the version table (a new file). */
    private static int versionWithoutLock(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")) {
            rows.next();
            if (rows.getInt(1) == 0) {
                return 0;
            }
        }
        return currentVersion(connection);
    }

    private static int currentVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /**
     * Splits a script at semicolons that end a line; scripts hold no semicolons inside literals, and a trigger is
     * written on one line.
     */
    static List<String> statements(String script) {
        return Arrays.stream(withoutComments(script).split(";\\s*(\\r?\\n|$)"))
                .map(String::strip)
                .filter(sql -> !sql.isBlank())
                .toList();
    }

    private static String withoutComments(String sql) {
        return sql.lines().filter(line -> !line.strip().startsWith("--")).collect(Collectors.joining("\n"));
    }

    private static String load(String script) {
        String resource = RESOURCE_DIR + script;
        try (InputStream in = SchemaMigrator.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("migration " + resource + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read migration " + resource, e);
        }
    }
}
