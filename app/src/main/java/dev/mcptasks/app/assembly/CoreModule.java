package dev.mcptasks.app.assembly;

import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.core.metrics.MeteringRepository;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfiguredSecrets;
import dev.mcptasks.app.logging.LogRedaction;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.secret.KnownSecrets;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.util.Objects;

/**
 * Binds what follows from the configuration alone (settings, server directory), the task service, and the task
 * changes this process's worker announces to its readers.
 */
public final class CoreModule extends AbstractModule {
    private final AppConfig config;

    private final SecretRedactor secrets;

    public CoreModule(AppConfig config) {
        this(config, secretsOf(config));
    }

    /** @param secrets the application's one redactor (the OAuth module adds the tokens it obtains to it) */
    public CoreModule(AppConfig config, SecretRedactor secrets) {
        this.config = Objects.requireNonNull(config, "config");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
    }

    /**
     * The configured secrets, kept out of stored, logged and answered upstream text; the log's converters use them
     * from now on.
     */
    public static SecretRedactor secretsOf(AppConfig config) {
        KnownSecrets secrets = new KnownSecrets();
        ConfiguredSecrets.of(config).forEach(secrets::remember);
        LogRedaction.use(secrets);
        return secrets;
    }

    @Override
    protected void configure() {
        bind(AppConfig.class).toInstance(config);
        bind(RuntimeSettings.class).toInstance(config.runtime().toSettings());
        bind(ServerDirectory.class).toInstance(config.serverDirectory());
        bind(SecretRedactor.class).toInstance(secrets);
        // no metrics unless the admin module serves them
        OptionalBinder.newOptionalBinder(binder(), Metrics.class).setDefault().toInstance(Metrics.NONE);
    }

    @Provides
    @Singleton
    ThreadDeaths threadDeaths() {
        return new ThreadDeaths();
    }

    @Provides
    @Singleton
    TaskService taskService(TaskRepository repository, ServerDirectory servers, IdGenerator ids, Metrics metrics,
            Clock clock) {
        return new TaskService(new MeteringRepository(repository, metrics, clock), servers, ids);
    }


    @Provides
    @Singleton
    TaskChanges taskChanges(TaskRepository repository) {
        return new TaskChanges(repository);
    }
}
