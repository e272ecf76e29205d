package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.FrontSessionStoreContract;
import java.time.Duration;

/** Runs the front session contract against the in-memory store. */
class InMemoryFrontSessionStoreTest extends FrontSessionStoreContract {
    private final InMemoryFrontSessionStore sessions = new InMemoryFrontSessionStore();

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return new InMemoryTaskRepository(clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        ((InMemoryTaskRepository) repo).ageWorkerHeartbeats(by);
    }

    @Override
    protected FrontSessionStore sessionsOf(CloseableTaskRepository repository) {
        return sessions;
    }
}
