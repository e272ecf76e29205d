package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.Objects;

/**
 * Binds what follows from the configuration alone (settings, server directory), the task service, and the task
 * changes this process's worker announces to its readers.
 */
public final class CoreModule extends AbstractModule {
    private final AppConfig config;

    public CoreModule(AppConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    protected void configure() {
        bind(AppConfig.class).toInstance(config);
        bind(RuntimeSettings.class).toInstance(config.runtime().toSettings());
        bind(ServerDirectory.class).toInstance(config.serverDirectory());
    }

    @Provides
    @Singleton
    TaskService taskService(TaskRepository repository, ServerDirectory servers, IdGenerator ids) {
        return new TaskService(repository, servers, ids);
    }

    @Provides
    @Singleton
    TaskChanges taskChanges(TaskRepository repository) {
        return new TaskChanges(repository);
    }
}
