package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.retention.RetentionStore;
import java.util.Objects;

/** Opens PostgreSQL task repositories: the one public way to obtain one outside Guice. */
public final class PostgresTaskRepositories {
    private PostgresTaskRepositories() {}

    /**
     * Connects (failing fast with a {@code RepositoryUnavailableException} naming host:port/database when the server
     * cannot be reached), migrates the schema under an advisory lock, and returns the repository, which owns the
     * connection pool until closed.
     */
    public static CloseableTaskRepository open(PostgresSettings settings, Clock clock, IdGenerator ids,
            FencedWriteHook hook) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(hook, "hook");
        // the store's transactions name this origin in their change notifications; its listener leaves them out
        String origin = PostgresStore.newOrigin();
        return new PostgresTaskRepository(PostgresStore.open(settings, origin), WorkArrivalListener.of(settings),
                WorkArrivalListener.of(settings, WorkArrivalListener.CHANGES, origin), clock, ids, hook);
    }

    /** The retention store on the database of {@code repository}, one this class opened. */
    public static RetentionStore retentionOf(CloseableTaskRepository repository) {
        return ((PostgresTaskRepository) repository).retention();
    }

    /** The audit log on the database of {@code repository}, one this class opened. */
    public static AuditLog auditOf(CloseableTaskRepository repository) {
        return ((PostgresTaskRepository) repository).audit();
    }

    /** The claim history on the database of {@code repository}, one this class opened. */
    public static TaskHistory historyOf(CloseableTaskRepository repository) {
        return ((PostgresTaskRepository) repository).history();
    }

    /** The gateway's front sessions on the database of {@code repository}, one this class opened. */
    public static FrontSessionStore frontSessionsOf(CloseableTaskRepository repository) {
        return ((PostgresTaskRepository) repository).frontSessions();
    }
}
