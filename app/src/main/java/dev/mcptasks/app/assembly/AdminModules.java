package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.adapters.admin.AdminModule;
import dev.mcptasks.adapters.admin.AdminRole;
import dev.mcptasks.adapters.admin.AdminSettings;
import dev.mcptasks.adapters.admin.AdminUser;
import dev.mcptasks.adapters.admin.HealthCheck;
import dev.mcptasks.app.config.AdminConfig;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerRegistry;
import java.util.Optional;

/**
 * The admin listener of {@code serve} and {@code gateway} when the configuration has {@code admin}: the
 * {@link AdminModule} with this process's probe conditions. {@code /healthz}: no internal thread died.
 * {@code /readyz}: the store answers (its schema was checked current when it opened, and a store of another schema
 * version refuses to open), and, with a worker, the worker's registration is live by the store's clock.
 */
public final class AdminModules {
    private AdminModules() {
    }

    static Optional<Module> forConfig(AppConfig config, WorkerId worker) {
        return config.adminConfig().map(admin -> module(admin, worker));
    }

    private static Module module(AdminConfig admin, WorkerId worker) {
        return new AbstractModule() {
            @Override
            protected void configure() {
                install(new AdminModule());
                bind(AdminSettings.class).toInstance(new AdminSettings(admin.host(), admin.port(), admin.token(),
                        admin.users().stream().map(user -> new AdminUser(user.name(), user.token(),
                                AdminRole.fromWire(user.role()))).toList()));
                AdminModule.liveness(binder()).addBinding("threads").to(ThreadsAlive.class);
                AdminModule.readiness(binder()).addBinding("store").to(StoreAnswers.class);
                if (worker != null) {
                    AdminModule.readiness(binder()).addBinding("worker").to(WorkerRegistered.class);
                }
            }

            @Provides
            @Singleton
            ThreadsAlive threads(ThreadDeaths deaths) {
                return new ThreadsAlive(deaths);
            }

            @Provides
            @Singleton
            StoreAnswers store(TaskRepository repository) {
                return new StoreAnswers(repository);
            }

            @Provides
            @Singleton
            WorkerRegistered registered(TaskRepository repository, RuntimeSettings settings) {
                return new WorkerRegistered(repository, worker, settings);
            }
        };
    }

    /** Starts the admin listener when the application has one; a bind failure is one line naming the address. */
    public static Optional<AdminListener> start(Application app) {
        if (app.injector().getExistingBinding(com.google.inject.Key.get(AdminListener.class)) == null) {
            return Optional.empty();
        }
        try {
            AdminListener listener = app.get(AdminListener.class);
            listener.start();
            return Optional.of(listener);
        } catch (IllegalStateException e) {
            throw new ConfigException("admin", "admin: " + e.getMessage());
        }
    }

    static final class ThreadsAlive implements HealthCheck {
        private final ThreadDeaths deaths;

        ThreadsAlive(ThreadDeaths deaths) {
            this.deaths = deaths;
        }

        @Override
        public Optional<String> problem() {
            return deaths.first();
        }
    }

    static final class StoreAnswers implements HealthCheck {
        private final WorkerRegistry repository;

        StoreAnswers(WorkerRegistry repository) {
            this.repository = repository;
        }

        @Override
        public Optional<String> problem() {
            try {
                repository.workers();
                return Optional.empty();
            } catch (RuntimeException e) {
                return Optional.of("store unavailable: " + oneLine(e));
            }
        }
    }

    static final class WorkerRegistered implements HealthCheck {
        private final WorkerRegistry repository;
        private final WorkerId worker;
        private final RuntimeSettings settings;

        WorkerRegistered(WorkerRegistry repository, WorkerId worker, RuntimeSettings settings) {
            this.repository = repository;
            this.worker = worker;
            this.settings = settings;
        }

        @Override
        public Optional<String> problem() {
            try {
                return repository.isWorkerAlive(worker, settings.workerStaleAfter()) ? Optional.empty()
                        : Optional.of("worker " + worker.value() + " is not registered (or its heartbeat is stale)");
            } catch (RuntimeException e) {
                return Optional.of("store unavailable: " + oneLine(e));
            }
        }
    }

    private static String oneLine(RuntimeException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
