package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.AuditLogContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/** Runs the audit log contract on the same database set-up as the repository contract. */
class SqliteAuditLogTest extends AuditLogContract {
    @TempDir
    Path dir;

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return SqliteTaskRepositories.open(SqliteFixture.settings(file()), clock, ids, hook);
    }

    @Override
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return SqliteTaskRepositories.open(SqliteFixture.settings(file()), clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        try (Connection connection = SeedRows.connect(file());
                PreparedStatement age = connection.prepareStatement(
                        "UPDATE workers SET last_seen_at = last_seen_at - ?")) {
            age.setLong(1, by.toMillis());
            age.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void updateRecord(long sequence, String detail) throws SQLException {
        try (Connection connection = SeedRows.connect(file());
                PreparedStatement update = connection.prepareStatement("UPDATE audit SET detail = ? WHERE seq = ?")) {
            update.setString(1, detail);
            update.setLong(2, sequence);
            update.executeUpdate();
        }
    }

    private Path file() {
        return dir.resolve("tasks.db");
    }

    @Override
    protected AuditLog auditOf(CloseableTaskRepository repository) {
        return SqliteTaskRepositories.auditOf(repository);
    }
}
