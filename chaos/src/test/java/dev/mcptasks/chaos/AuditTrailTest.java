package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite audit trigger records accepted updates only, and its entries feed the audit checks. */
class AuditTrailTest {
    @TempDir
    Path dir;

    private Connection open() throws Exception {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("audit.db"));
        try (Statement statement = connection.createStatement()) {
            // the columns of the product's tasks table that the trigger reads
            statement.execute("CREATE TABLE tasks (id TEXT PRIMARY KEY, status TEXT NOT NULL, result TEXT,"
                    + " error_code TEXT, remote_task_id TEXT, lease_owner TEXT, lease_token TEXT, lease_phase TEXT,"
                    + " lease_expires_at INTEGER, next_control_at INTEGER, submit_attempted_at INTEGER)");
            statement.execute("INSERT INTO tasks (id, status) VALUES ('t1', 'working')");
        }
        AuditTrail.install(connection, false);
        return connection;
    }

    private static int update(Connection connection, String sql, Object... values) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            return statement.executeUpdate();
        }
    }

    @Test
    void recordsAcceptedWritesOnlyAndFlagsATerminalWriteUnderAnExpiredClaim() throws Exception {
        try (Connection connection = open()) {
            long now = System.currentTimeMillis();
            update(connection, "UPDATE tasks SET lease_owner = 'w1.1', lease_token = 'a', lease_phase = 'poll',"
                    + " lease_expires_at = ? WHERE id = 't1'", now - 10_000);
            // a fenced write with a stale token matches nothing: no entry
            assertThat(update(connection, "UPDATE tasks SET status = 'failed' WHERE id = 't1' AND lease_token = 'old'"))
                    .isZero();
            // a write that ignored the expiry of its claim is accepted: the audit has it
            update(connection, "UPDATE tasks SET status = 'completed', result = '{}', lease_owner = NULL,"
                    + " lease_token = NULL, lease_phase = NULL, lease_expires_at = NULL WHERE id = 't1'"
                    + " AND lease_token = 'a'");

            List<AuditEntry> audit = AuditTrail.read(connection);

            assertThat(audit).hasSize(2);
            assertThat(audit.get(0).isClaim()).isTrue();
            assertThat(audit.get(1).oldToken()).isEqualTo("a");
            assertThat(audit.get(1).newStatus()).isEqualTo("completed");
            assertThat(audit.get(1).controlChanged()).isTrue();
            assertThat(AuditChecks.check(audit, Set.of(), 1_000).violations())
                    .extracting(Violation::kind).containsExactly("terminal_write_after_expiry");
        }
    }

    @Test
    void aWriteUnderALiveClaimPassesTheChecks() throws Exception {
        try (Connection connection = open()) {
            long now = System.currentTimeMillis();
            update(connection, "UPDATE tasks SET lease_owner = 'w1.1', lease_token = 'a', lease_phase = 'poll',"
                    + " lease_expires_at = ? WHERE id = 't1'", now + 10_000);
            update(connection, "UPDATE tasks SET status = 'completed', lease_owner = NULL, lease_token = NULL,"
                    + " lease_phase = NULL, lease_expires_at = NULL WHERE id = 't1' AND lease_token = 'a'");

            CheckResult result = AuditChecks.check(AuditTrail.read(connection), Set.of(), 1_000);

            assertThat(result.violations()).isEmpty();
            assertThat(result.figures()).containsEntry("claims", 1);
        }
    }
}
