package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.retention.RetentionStore;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryCredentialStore;
import dev.mcptasks.testkit.InMemoryTaskRepository;

/**
 * The platform of an assembly under test, in place of {@code SystemModule} and a store module: a controllable clock,
 * predictable ids, a fixed jitter, and stores of the test's making (the in-memory ones, or decorators of them).
 */
public final class InMemoryPlatform extends AbstractModule {
    private final Clock clock;
    private final IdGenerator ids;
    private final CloseableTaskRepository closeable;
    private final TaskRepository store;
    private final RetentionStore retention;
    private final CredentialStore credentials;
    private final AuditLog audit;

    /**
     * @param closeable the store as the application closes it
     * @param store the store as the application uses it (the same, or a decorator of it)
     */
    public InMemoryPlatform(Clock clock, IdGenerator ids, CloseableTaskRepository closeable, TaskRepository store,
            RetentionStore retention, CredentialStore credentials, AuditLog audit) {
        this.clock = clock;
        this.ids = ids;
        this.closeable = closeable;
        this.store = store;
        this.retention = retention;
        this.credentials = credentials;
        this.audit = audit;
    }

    /** {@code store} as it is, with its retention, and fresh credential and audit stores on {@code clock}. */
    public static InMemoryPlatform of(Clock clock, IdGenerator ids, InMemoryTaskRepository store) {
        return new InMemoryPlatform(clock, ids, store, store, store.retention(), new InMemoryCredentialStore(clock),
                new InMemoryAuditLog(clock));
    }

    @Override
    protected void configure() {
        bind(Clock.class).toInstance(clock);
        bind(IdGenerator.class).toInstance(ids);
        bind(RandomSource.class).toInstance(() -> 0.5);
        bind(CloseableTaskRepository.class).toInstance(closeable);
        bind(TaskRepository.class).toInstance(store);
        bind(CredentialStore.class).toInstance(credentials);
        bind(RetentionStore.class).toInstance(retention);
        bind(AuditLog.class).toInstance(audit);
    }
}
