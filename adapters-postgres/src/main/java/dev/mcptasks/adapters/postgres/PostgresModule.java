package dev.mcptasks.adapters.postgres;

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
 * Binds the PostgreSQL repository as one singleton under {@link TaskRepository} and {@link CloseableTaskRepository},
 * and {@link CredentialStore} to the credential table of the same database, on the same pool. Expects {@link Clock}
 * and {@link IdGenerator} to be bound by the application root. The repository owns the pool: closing it closes the
 * credential store's connections too.
 */
public final class PostgresModule extends AbstractModule {
    private final PostgresSettings settings;
    /** Why the one open failed; guarded by this. */
    private RuntimeException openFailure;

    public PostgresModule(PostgresSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    protected void configure() {
        bind(TaskRepository.class).to(CloseableTaskRepository.class);
        bind(CloseableTaskRepository.class).to(PostgresTaskRepository.class);
    }

    /**
     * The one singleton of the module. In the production stage Guice creates every binding linked to a singleton
     * eagerly, and retries a failed singleton for each: the failure of the one open is kept and thrown again, so an
     * unreachable server costs one connect timeout at start-up, not one per key.
     */
    @Provides
    @Singleton
    synchronized PostgresTaskRepository repository(Clock clock, IdGenerator ids) {
        if (openFailure != null) {
            throw openFailure;
        }
        try {
            return (PostgresTaskRepository) PostgresTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
        } catch (RuntimeException e) {
            openFailure = e;
            throw e;
        }
    }

    /**
     * Unscoped on purpose: the repository holds the one instance. A singleton here would be created eagerly in the
     * production stage, and when the server cannot be reached Guice would try to connect again for it.
     */
    @Provides
    CredentialStore credentials(PostgresTaskRepository repository) {
        return repository.credentials();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    RetentionStore retention(PostgresTaskRepository repository) {
        return repository.retention();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    AuditLog audit(PostgresTaskRepository repository) {
        return repository.audit();
    }

    /** Unscoped, as the other stores of the repository: the repository holds the pool. */
    @Provides
    ConnectionPools pools(PostgresTaskRepository repository) {
        return repository::pools;
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    TaskHistory history(PostgresTaskRepository repository) {
        return repository.history();
    }

    /** Unscoped, as {@link #credentials}: the repository holds the one instance. */
    @Provides
    FrontSessionStore frontSessions(PostgresTaskRepository repository) {
        return repository.frontSessions();
    }
}
