package dev.mcptasks.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.TaskRepositoryContract;

/** Runs the repository contract against PostgreSQL: a fresh schema per test, peers as second connection pools. */
class PostgresTaskRepositoryTest extends TaskRepositoryContract {
    private PostgresSettings settings;

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        settings = PostgresTestDatabase.freshSchema();
        return PostgresTaskRepositories.open(settings, clock, ids, hook);
    }

    @Override
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return PostgresTaskRepositories.open(settings, clock, ids, hook);
    }
}
