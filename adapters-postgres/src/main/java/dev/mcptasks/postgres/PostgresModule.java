package dev.mcptasks.postgres;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.Objects;

/**
 * Binds the PostgreSQL repository as one singleton under {@link TaskRepository} and {@link CloseableTaskRepository}.
 * Expects {@link Clock} and {@link IdGenerator} to be bound by the application root.
 */
public final class PostgresModule extends AbstractModule {
    private final PostgresSettings settings;

    public PostgresModule(PostgresSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    protected void configure() {
        bind(TaskRepository.class).to(CloseableTaskRepository.class);
    }

    @Provides
    @Singleton
    CloseableTaskRepository repository(Clock clock, IdGenerator ids) {
        return PostgresTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
    }
}
