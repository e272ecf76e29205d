package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.AuditLogContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/** Runs the audit log contract on the same database set-up as the repository contract. */
class PostgresAuditLogTest extends AuditLogContract {
    private PostgresSettings settings;

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        settings = PostgresTestDatabase.freshSchema();
        return PostgresTaskRepositories.open(settings, clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement age = connection.prepareStatement(
                        "UPDATE workers SET last_seen_at = last_seen_at - ? * interval '1 millisecond'")) {
            age.setLong(1, by.toMillis());
            age.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return PostgresTaskRepositories.open(settings, clock, ids, hook);
    }

    @Override
    protected void updateRecord(long sequence, String detail) throws SQLException {
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement update = connection.prepareStatement("UPDATE audit SET detail = ? WHERE seq = ?")) {
            update.setString(1, detail);
            update.setLong(2, sequence);
            update.executeUpdate();
        }
    }

    @Override
    protected AuditLog auditOf(CloseableTaskRepository repository) {
        return PostgresTaskRepositories.auditOf(repository);
    }
}
