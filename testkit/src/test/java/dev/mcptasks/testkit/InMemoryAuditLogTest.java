package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.AuditLogContract;
import java.time.Duration;

/** Runs the audit log contract against the in-memory log. */
class InMemoryAuditLogTest extends AuditLogContract {
    private InMemoryAuditLog log;

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        log = new InMemoryAuditLog(clock);
        return new InMemoryTaskRepository(clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        ((InMemoryTaskRepository) repo).ageWorkerHeartbeats(by);
    }

    /** The in-memory log has no way to change a record: its records are immutable values. */
    @Override
    protected void updateRecord(long sequence, String detail) {
        throw new UnsupportedOperationException("audit records are append-only: the in-memory log changes none");
    }

    @Override
    protected AuditLog auditOf(CloseableTaskRepository repository) {
        return log;
    }
}
