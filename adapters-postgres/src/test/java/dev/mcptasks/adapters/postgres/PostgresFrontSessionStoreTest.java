package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.FrontSessionStoreContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/** Runs the front session contract on the same database set-up as the repository contract. */
class PostgresFrontSessionStoreTest extends FrontSessionStoreContract {
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
    protected FrontSessionStore sessionsOf(CloseableTaskRepository repository) {
        return PostgresTaskRepositories.frontSessionsOf(repository);
    }
}
