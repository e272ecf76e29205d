package dev.mcptasks.sqlite;

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
 * Binds {@link TaskRepository} and {@link CloseableTaskRepository} to one SQLite repository; {@link Clock} and
 * {@link IdGenerator} must be bound by the application root.
 */
public final class SqliteModule extends AbstractModule {
    private final SqliteSettings settings;

    public SqliteModule(SqliteSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    protected void configure() {
        bind(TaskRepository.class).to(CloseableTaskRepository.class);
    }

    @Provides
    @Singleton
    CloseableTaskRepository repository(Clock clock, IdGenerator ids) {
        return SqliteTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
    }
}
