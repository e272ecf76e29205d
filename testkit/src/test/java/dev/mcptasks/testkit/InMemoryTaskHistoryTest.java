package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.retention.RetentionStore;
import dev.mcptasks.testkit.contract.TaskHistoryContract;
import java.time.Duration;

/** Runs the claim-history contract against the in-memory repository. */
class InMemoryTaskHistoryTest extends TaskHistoryContract {
    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return new InMemoryTaskRepository(clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        ((InMemoryTaskRepository) repo).ageWorkerHeartbeats(by);
    }

    @Override
    protected TaskHistory historyOf(CloseableTaskRepository repository) {
        return ((InMemoryTaskRepository) repository).history();
    }

    @Override
    protected RetentionStore retentionOf(CloseableTaskRepository repository) {
        return ((InMemoryTaskRepository) repository).retention();
    }
}
