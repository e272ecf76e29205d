package dev.mcptasks.sqlite;

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
 * Applies the versioned schema scripts in order, each recorded in {@code schema_version}. Runs in one writer
 * transaction that starts with {@code BEGIN IMMEDIATE}, so two processes starting together apply each version once;
 * a restart finds every version recorded and changes nothing.
 */
final class SchemaMigrator {
    /** The scripts, in version order: version n is element n-1. Never edit a released script; add a new one. */
    static final List<String> SCRIPTS = List.of("V001__tasks_and_workers.sql", "V002__task_creator.sql");

    private static final String RESOURCE_DIR = "dev/mcptasks/sqlite/migrations/";

    private final DataSource writer;
    private final String path;
    private final Clock clock;

    SchemaMigrator(DataSource writer, String path, Clock clock) {
        this.writer = writer;
        this.path = path;
        this.clock = clock;
    }

    /** Brings the schema to the newest version; returns that version. */
    int migrate() {
        try (Connection connection = writer.getConnection()) {
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
        int current = currentVersion(connection);
        if (current > SCRIPTS.size()) {
            throw new RepositoryException("SQLite database '" + path + "' has schema version " + current
                    + ", newer than the newest this build knows (" + SCRIPTS.size() + ")");
        }
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

    private static int currentVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Splits a script at semicolons that end a line; scripts hold no triggers or semicolons inside literals. */
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
