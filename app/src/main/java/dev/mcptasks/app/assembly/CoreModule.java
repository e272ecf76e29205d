package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfiguredSecrets;
import dev.mcptasks.app.logging.LogRedaction;
import dev.mcptasks.core.metrics.MeteringRepository;
import dev.mcptasks.core.retention.Pacer;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.secret.KnownSecrets;
import dev.mcptasks.core.service.AuditTrail;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.retention.RetentionStore;
import dev.mcptasks.ports.secret.SecretRedactor;
import dev.mcptasks.ports.trace.Tracing;
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
        // no spans unless the platform's tracing module (the OTEL_* environment) turns them on
        OptionalBinder.newOptionalBinder(binder(), Tracing.class).setDefault().toInstance(Tracing.NONE);
        // the command line's unless a channel module (the gateway's) says otherwise
        OptionalBinder.newOptionalBinder(binder(), AuditChannel.class).setDefault().toInstance(AuditChannel.CLI);
    }

    /**
     * Every action through the task service is audited: on the gateway under the calling token's principal, on the
     * command line under the OS user ({@code user.name}).
     */
    @Provides
    @Singleton
    ThreadDeaths threadDeaths() {
        return new ThreadDeaths();
    }

    @Provides
    @Singleton
    TaskService taskService(TaskRepository repository, ServerDirectory servers, IdGenerator ids, Metrics metrics,
            Clock clock, AuditLog audit, AuditChannel channel, Tracing tracing) {
        return new TaskService(new MeteringRepository(repository, metrics, clock), servers, ids,
                new AuditTrail(audit, channel, operator(channel)), tracing);
    }

    /** Deletes what the configured retention no longer keeps, in paced batches; workers and {@code purge} use it. */
    @Provides
    @Singleton
    Purger purger(RetentionStore store, AuditLog audit, Clock clock) {
        RetentionPolicy policy = config.retention();
        return new Purger(store, audit, clock, policy.batchSize(), Pacer.sleeping(policy.pause()));
    }

    static String operator(AuditChannel channel) {
        if (channel == AuditChannel.GATEWAY) {
            return "gateway";
        }
        String user = System.getProperty("user.name");
        return user == null || user.isBlank() ? "unknown" : user;
    }


    @Provides
    @Singleton
    TaskChanges taskChanges(TaskRepository repository, TaskService service) {
        TaskChanges changes = new TaskChanges(repository);
        // a local cancel is a change no worker commits: the service announces it itself
        service.announceChangesTo(changes);
        return changes;
    }
}
