package dev.mcptasks.app.assembly;

import com.google.inject.CreationException;
import com.google.inject.Module;
import com.google.inject.ProvisionException;
import com.google.inject.spi.Message;
import dev.mcptasks.adapters.http.HttpTransportModule;
import dev.mcptasks.adapters.sse.SseTransportModule;
import dev.mcptasks.adapters.stdio.StdioTransportModule;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one place that chooses modules, once, from the configuration: the store module by database url, the MCP
 * transports (stdio, Streamable HTTP, legacy HTTP+SSE: each server picks the one that supports it, or has its url's
 * transport detected), the real clock and ids, OAuth for workers and the {@code auth} commands when a server has
 * {@code auth}, and for workers the webhook notification sink when {@code notifications.webhook} is configured.
 * Tests replace the platform (clock, ids, store, transports) with fakes and keep the rest of the wiring.
 */
public final class AppRoot implements ApplicationFactory {
    private final Function<AppConfig, List<Module>> platform;
    private final Function<String, String> environment;

    /** A root whose environment has no variables (tests without OAuth). */
    public AppRoot(Function<AppConfig, List<Module>> platform) {
        this(platform, name -> null);
    }

    /** @param environment looks up environment variables ({@code MCP_TASKS_SECRET_KEY}) */
    public AppRoot(Function<AppConfig, List<Module>> platform, Function<String, String> environment) {
        this.platform = Objects.requireNonNull(platform, "platform");
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** The production wiring over the process environment. */
    public static AppRoot production() {
        return production(System::getenv);
    }

    /** The production wiring over the given environment. */
    public static AppRoot production(Function<String, String> environment) {
        return new AppRoot(config -> List.of(new SystemModule(), StoreModules.forDatabase(config.database()),
                new StdioTransportModule(), new HttpTransportModule(), new SseTransportModule(),
                TracingModule.fromEnvironment(environment)), environment);
    }

    @Override
    public Application openClient(AppConfig config) {
        return open(config, List.of(), CoreModule.secretsOf(config));
    }

    /**
     * Store and task service, as {@link #openClient}, with the admin listener ({@code AdminListener}, not yet started)
     * and the metrics when the configuration has {@code admin}: a process that drives workers of its own making (the
     * demo's) and serves their metrics; its {@code /readyz} checks the store only.
     */
    public Application openObserved(AppConfig config) {
        return open(config, AdminModules.forConfig(config, null).stream().toList(), CoreModule.secretsOf(config));
    }

    @Override
    public Application openWorker(AppConfig config, WorkerId worker) {
        SecretRedactor secrets = CoreModule.secretsOf(config);
        List<Module> extra = new ArrayList<>(List.of(new WorkerModule(worker)));
        OAuthModules.forServers(config, environment, secrets).ifPresent(extra::add);
        NotificationModules.forConfig(config).ifPresent(extra::add);
        AdminModules.forConfig(config, worker).ifPresent(extra::add);
        return open(config, extra, secrets);
    }

    @Override
    public Application openGateway(AppConfig config, WorkerId worker) {
        SecretRedactor secrets = CoreModule.secretsOf(config);
        List<Module> extra = new ArrayList<>();
        if (worker != null) {
            extra.add(new WorkerModule(worker));
            NotificationModules.forConfig(config).ifPresent(extra::add);
            extra.add(GatewayModule.besideWorker());
        } else {
            extra.add(GatewayModule.withOwnSessions());
        }
        OAuthModules.forServers(config, environment, secrets).ifPresent(extra::add);
        AdminModules.forConfig(config, worker).ifPresent(extra::add);
        return open(config, extra, secrets);
    }

    @Override
    public Application openLogins(AppConfig config) {
        SecretRedactor secrets = CoreModule.secretsOf(config);
        return open(config, OAuthModules.forServers(config, environment, secrets).stream().toList(), secrets);
    }

    private Application open(AppConfig config, List<Module> extra, SecretRedactor secrets) {
        List<Module> modules = new ArrayList<>();
        modules.add(new CoreModule(config, secrets));
        modules.addAll(platform.apply(config));
        modules.addAll(extra);
        try {
            return new Application(HardenedInjector.create(modules));
        } catch (CreationException e) {
            // the store is a singleton created eagerly with the injector: its failure arrives wrapped in Guice's
            // report of every binding, which is no message for an operator
            throw startupFailure(config, e.getErrorMessages(), e);
        } catch (ProvisionException e) {
            throw startupFailure(config, e.getErrorMessages(), e);
        }
    }

    private static RuntimeException startupFailure(AppConfig config, Collection<Message> errors,
            RuntimeException failure) {
        RepositoryException store = storeFailure(errors);
        if (store != null) {
            return new StoreUnavailableException(config.database(), store);
        }
        return new StartupException(errors.isEmpty() ? failure.getMessage() : rootMessage(errors.iterator().next()),
                failure);
    }

    private static String rootMessage(Message error) {
        Throwable root = error.getCause();
        if (root == null) {
            return error.getMessage();
        }
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static RepositoryException storeFailure(Collection<Message> errors) {
        for (Message error : errors) {
            for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof RepositoryException repository) {
                    return repository;
                }
                if (cause.getCause() == cause) {
                    break;
                }
            }
        }
        return null;
    }
}
