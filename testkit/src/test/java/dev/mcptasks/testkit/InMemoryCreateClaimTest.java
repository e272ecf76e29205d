package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.CreateClaimContract;
import java.time.Duration;

/** Runs the claimed-create contract against the in-memory repository. */
class InMemoryCreateClaimTest extends CreateClaimContract {
    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return new InMemoryTaskRepository(clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        ((InMemoryTaskRepository) repo).ageWorkerHeartbeats(by);
    }
}
