package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.retention.RetentionStore;
import java.util.Objects;

/** Opens the SQLite task repository: pools, schema migrations, MyBatis. */
public final class SqliteTaskRepositories {
    private SqliteTaskRepositories() {}

    /**
     * Opens (creating if needed) the database file, applies pending schema migrations and returns the repository,
     * which owns both connection pools until closed.
     *
     * @throws RepositoryUnavailableException when the file cannot be opened or migrated; the message names the path
     */
    public static CloseableTaskRepository open(SqliteSettings settings, Clock clock, IdGenerator ids,
            FencedWriteHook hook) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(hook, "hook");
        SqliteDatabase database = SqliteDatabase.open(settings, clock);
        return new SqliteTaskRepository(database, clock, ids, hook);
    }

    /** The retention store on the database of {@code repository}, one this class opened. */
    public static RetentionStore retentionOf(CloseableTaskRepository repository) {
        return ((SqliteTaskRepository) repository).retention();
    }

    /** The audit log on the database of {@code repository}, one this class opened. */
    public static AuditLog auditOf(CloseableTaskRepository repository) {
        return ((SqliteTaskRepository) repository).audit();
    }

    /** The claim history on the database of {@code repository}, one this class opened. */
    public static TaskHistory historyOf(CloseableTaskRepository repository) {
        return ((SqliteTaskRepository) repository).history();
    }

    /** The gateway's front sessions on the database of {@code repository}, one this class opened. */
    public static FrontSessionStore frontSessionsOf(CloseableTaskRepository repository) {
        return ((SqliteTaskRepository) repository).frontSessions();
    }
}
