package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.repository.RepositoryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * Applies the versioned SQL migrations once, in one transaction, under a transaction-scoped advisory lock. The
 * version is read first without the lock: an up-to-date schema (every start but the first) neither waits for a peer's
 * migration lock nor takes it.
 */
final class SchemaMigrator {

    /** The migrations in order; version n is element n-1. Append only: never edit an applied script. */
    static final List<String> MIGRATIONS = List.of("V1__tasks_and_workers.sql", "V2__task_creator.sql",
            "V3__input_rounds.sql", "V4__hot_updates.sql", "V5__credentials.sql",
            "V6__task_principal.sql", "V7__endpoint_session.sql", "V8__retention_and_audit.sql",
            "V9__trace_context.sql", "V10__front_sessions.sql", "V11__task_history.sql",
            "V12__change_notifications.sql", "V13__audit_append_only.sql",
            "V14__changes_name_their_origin.sql");

    /** Arbitrary constant shared by every worker: the advisory lock that serializes concurrent start-ups. */
    static final long MIGRATION_LOCK_KEY = 0x6d63707461736b73L;

    private SchemaMigrator() {}

    /** Brings the schema to the newest version; returns the version found before migrating. */
    static int migrate(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            int seen = checkVersion(versionWithoutLock(connection));
            if (seen == MIGRATIONS.size()) {
                return seen;
            }
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                int before = migrateLocked(connection);
                connection.commit();
                return before;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    private static int migrateLocked(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            // Workers starting together queue here; the lock is released at commit or rollback.
            statement.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK_KEY + ")");
            statement.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY,"
                    + " script varchar(256) NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())");
        }
        // read again under the lock: a peer may have migrated since the unlocked read
        int current = checkVersion(currentVersion(connection));
        for (int version = current + 1; version <= MIGRATIONS.size(); version++) {
            String script = MIGRATIONS.get(version - 1);
            try (Statement statement = connection.createStatement()) {
                statement.execute(load(script));
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO schema_version (version, script) VALUES (?, ?)")) {
                insert.setInt(1, version);
                insert.setString(2, script);
                insert.executeUpdate();
            }
        }
        return current;
    }

    private static int checkVersion(int current) {
        if (current > MIGRATIONS.size()) {
            throw new RepositoryException("database schema version " + current + " is newer than this build"
                    + " supports (" + MIGRATIONS.size() + "); upgrade mcp-tasks");
        }
        return current;
    }

    /** The recorded version, 0 when the version table does not exist yet (resolved through the search path). */
    private static int versionWithoutLock(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT to_regclass('schema_version') IS NOT NULL")) {
            rows.next();
            if (!rows.getBoolean(1)) {
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

    private static String load(String script) {
        String resource = "migrations/" + script;
        try (InputStream in = SchemaMigrator.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new RepositoryException("migration script " + resource + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RepositoryException("cannot read migration script " + resource, e);
        }
    }
}
