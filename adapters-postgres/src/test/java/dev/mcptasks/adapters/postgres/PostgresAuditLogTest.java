package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.testkit.contract.AuditLogContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

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

    @Test
    void theAppendsOfATransactionAreInsertedAtItsEndAndRolledBackWithIt() {
        AuditLog audit = auditOf(repo);
        TaskId kept = TaskId.of("task-kept");
        TaskId lost = TaskId.of("task-lost");
        repo.inOneTransaction(() -> {
            repo.create(new NewTask(kept, "alpha", "tool", "{}", "mcp-tasks", null, null));
            audit.append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.SUBMIT, kept, null));
            return null;
        });

        // a record the table refuses (a principal over its 256 characters) fails the transaction at its end
        assertThatThrownBy(() -> repo.inOneTransaction(() -> {
            repo.create(new NewTask(lost, "alpha", "tool", "{}", "mcp-tasks", null, null));
            audit.append(new AuditEntry("a".repeat(300), AuditChannel.GATEWAY, AuditAction.SUBMIT, lost, null));
            return null;
        })).hasMessageContaining("in the audit log");

        assertThat(repo.find(kept)).isPresent();
        assertThat(repo.find(lost)).as("rolled back with the record").isEmpty();
        assertThat(audit.list(new AuditQuery(null, null, 10))).extracting(AuditRecord::taskId).containsExactly(kept);
    }

    @Override
    protected AuditLog auditOf(CloseableTaskRepository repository) {
        return PostgresTaskRepositories.auditOf(repository);
    }
}
