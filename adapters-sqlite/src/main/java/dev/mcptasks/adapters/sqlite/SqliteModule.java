package dev.mcptasks.adapters.sqlite;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.metrics.ConnectionPools;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.retention.RetentionStore;
import java.util.Objects;

/**
 * Binds {@link TaskRepository} and {@link CloseableTaskRepository} to one SQLite repository, and
 * {@link CredentialStore} to the credential table of the same database file, on the same pools; {@link Clock} and
 * {@link IdGenerator} must be bound by the application root. The repository owns the database: closing it closes the
 * credential store's connections too.
 */
public final class SqliteModule extends AbstractModule {
    private final SqliteSettings settings;
    /** Why the one open failed; guarded by this. */
    private RuntimeException openFailure;

    public SqliteModule(SqliteSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    protected void configure() {
        bind(TaskRepository.class).to(CloseableTaskRepository.class);
        bind(CloseableTaskRepository.class).to(SqliteTaskRepository.class);
    }

    /**
     * The one singleton of the module. In the production stage Guice creates every binding linked to a singleton
     * eagerly, and retries a failed singleton for each: the failure of the one open is kept and thrown again, so a
     * database that cannot be opened is tried once, not once per key.
     */
    @Provides
    @Singleton
    synchronized SqliteTaskRepository repository(Clock clock, IdGenerator ids) {
        if (openFailure != null) {
            throw openFailure;
        }
        try {
            return (SqliteTaskRepository) SqliteTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
        } catch (RuntimeException e) {
            openFailure = e;
            throw e;
        }
    }

    /**
     * Unscoped on purpose: the repository holds the one instance. A singleton here would be created eagerly in the
     * production stage, and when the database cannot be opened Guice would try to open it again for it.
     */
    @Provides
    CredentialStore credentials(SqliteTaskRepository repository) {
        return repository.credentials();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    RetentionStore retention(SqliteTaskRepository repository) {
        return repository.retention();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the pools. */
    @Provides
    ConnectionPools pools(SqliteTaskRepository repository) {
        return repository::pools;
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    AuditLog audit(SqliteTaskRepository repository) {
        return repository.audit();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    TaskHistory history(SqliteTaskRepository repository) {
        return repository.history();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    FrontSessionStore frontSessions(SqliteTaskRepository repository) {
        return repository.frontSessions();
    }
}
