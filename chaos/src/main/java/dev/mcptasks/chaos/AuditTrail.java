package dev.mcptasks.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Installs the harness's audit of accepted task writes (a table and an AFTER UPDATE trigger, never part of the
 * product's migrations) and reads it back. An AFTER UPDATE row trigger fires only for rows a statement really changed,
 * inside the writer's transaction: a fenced write that matched nothing, or a rolled-back one, leaves no entry.
 */
public final class AuditTrail {
    private static final String COLUMNS = "task_id, at_ms, writer, old_status, new_status, old_owner, new_owner,"
            + " old_token, new_token, old_phase, new_phase, old_expires, new_expires, control_changed";

    private static final String CONTROL_COLUMNS_CHANGED_SQLITE = "(OLD.status IS NOT NEW.status"
            + " OR OLD.result IS NOT NEW.result OR OLD.error_code IS NOT NEW.error_code"
            + " OR OLD.remote_task_id IS NOT NEW.remote_task_id OR OLD.lease_owner IS NOT NEW.lease_owner"
            + " OR OLD.lease_token IS NOT NEW.lease_token OR OLD.lease_phase IS NOT NEW.lease_phase"
            + " OR OLD.lease_expires_at IS NOT NEW.lease_expires_at OR OLD.next_control_at IS NOT NEW.next_control_at"
            + " OR OLD.submit_attempted_at IS NOT NEW.submit_attempted_at)";

    private static final String CONTROL_COLUMNS_CHANGED_POSTGRES = CONTROL_COLUMNS_CHANGED_SQLITE
            .replace(" IS NOT ", " IS DISTINCT FROM ");

    private AuditTrail() {}

    /** Creates the audit table and trigger on a store whose {@code tasks} table exists. */
    public static void install(Connection connection, boolean postgres) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (postgres) {
                statement.execute("CREATE TABLE chaos_audit (seq BIGSERIAL PRIMARY KEY, task_id TEXT NOT NULL,"
                        + " at_ms BIGINT NOT NULL, writer TEXT, old_status TEXT, new_status TEXT, old_owner TEXT,"
                        + " new_owner TEXT, old_token TEXT, new_token TEXT, old_phase TEXT, new_phase TEXT,"
                        + " old_expires BIGINT, new_expires BIGINT, control_changed BOOLEAN NOT NULL)");
                statement.execute("CREATE FUNCTION chaos_audit_task() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " INSERT INTO chaos_audit (" + COLUMNS + ") VALUES (NEW.id,"
                        + " (extract(epoch FROM clock_timestamp()) * 1000)::bigint,"
                        + " current_setting('application_name'), OLD.status, NEW.status, OLD.lease_owner,"
                        + " NEW.lease_owner, OLD.lease_token, NEW.lease_token, OLD.lease_phase, NEW.lease_phase,"
                        + " (extract(epoch FROM OLD.lease_expires_at) * 1000)::bigint,"
                        + " (extract(epoch FROM NEW.lease_expires_at) * 1000)::bigint, "
                        + CONTROL_COLUMNS_CHANGED_POSTGRES + "); RETURN NULL; END $$");
                statement.execute("CREATE TRIGGER chaos_audit_task AFTER UPDATE ON tasks FOR EACH ROW"
                        + " EXECUTE FUNCTION chaos_audit_task()");
            } else {
                statement.execute("CREATE TABLE chaos_audit (seq INTEGER PRIMARY KEY AUTOINCREMENT,"
                        + " task_id TEXT NOT NULL, at_ms INTEGER NOT NULL, writer TEXT, old_status TEXT,"
                        + " new_status TEXT, old_owner TEXT, new_owner TEXT, old_token TEXT, new_token TEXT,"
                        + " old_phase TEXT, new_phase TEXT, old_expires INTEGER, new_expires INTEGER,"
                        + " control_changed INTEGER NOT NULL)");
                statement.execute("CREATE TRIGGER chaos_audit_task AFTER UPDATE ON tasks BEGIN"
                        + " INSERT INTO chaos_audit (" + COLUMNS + ") VALUES (NEW.id,"
                        + " CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NULL, OLD.status,"
                        + " NEW.status, OLD.lease_owner, NEW.lease_owner, OLD.lease_token, NEW.lease_token,"
                        + " OLD.lease_phase, NEW.lease_phase, OLD.lease_expires_at, NEW.lease_expires_at, "
                        + CONTROL_COLUMNS_CHANGED_SQLITE + "); END");
            }
        }
    }

    public static List<AuditEntry> read(Connection connection) throws SQLException {
        List<AuditEntry> entries = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT seq, " + COLUMNS + " FROM chaos_audit ORDER BY seq")) {
            while (rows.next()) {
                entries.add(new AuditEntry(rows.getLong("seq"), rows.getString("task_id"), rows.getLong("at_ms"),
                        rows.getString("writer"), rows.getString("old_status"), rows.getString("new_status"),
                        rows.getString("old_owner"), rows.getString("new_owner"), rows.getString("old_token"),
                        rows.getString("new_token"), rows.getString("old_phase"), rows.getString("new_phase"),
                        nullableLong(rows, "old_expires"), nullableLong(rows, "new_expires"),
                        rows.getBoolean("control_changed")));
            }
        }
        return entries;
    }

    private static Long nullableLong(ResultSet rows, String column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }
}
