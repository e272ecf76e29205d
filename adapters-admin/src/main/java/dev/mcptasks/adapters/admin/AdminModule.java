package dev.mcptasks.adapters.admin;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.OptionalBinder;
import com.google.inject.name.Names;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.metrics.ConnectionPools;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.repository.TaskRepository;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Map;
import java.util.Optional;

/**
 * The admin listener and the metrics: binds {@link Metrics} (through the {@link OptionalBinder} the application
 * declares) to a Prometheus registry with the JVM's and Netty's own binders, and the {@link AdminListener} with the
 * routes {@code /metrics}, {@code /healthz}, {@code /readyz} and the dashboard under {@code /ui/}. Needs
 * {@link AdminSettings}, the {@link TaskRepository}, the {@link TaskService} (the dashboard's reads and actions), the
 * {@link AuditLog}, the {@link RuntimeSettings} and the {@link Clock}, and uses the store's {@link TaskHistory} where
 * one is bound; other modules add routes with {@link #routes} and probe conditions with {@link #liveness} and
 * {@link #readiness}.
 */
public final class AdminModule extends AbstractModule {
    private static final String LIVENESS = "liveness";
    private static final String READINESS = "readiness";

    /** The route registry: a route per exact path. */
    public static MapBinder<String, AdminRoute> routes(Binder binder) {
        return MapBinder.newMapBinder(binder, String.class, AdminRoute.class);
    }

    /** Conditions of {@code /healthz}, by name: the process is alive and none of its internal threads died. */
    public static MapBinder<String, HealthCheck> liveness(Binder binder) {
        return MapBinder.newMapBinder(binder, com.google.inject.TypeLiteral.get(String.class),
                com.google.inject.TypeLiteral.get(HealthCheck.class), Names.named(LIVENESS));
    }

    /** Conditions of {@code /readyz}, by name: store reachable, schema current, worker registered. */
    public static MapBinder<String, HealthCheck> readiness(Binder binder) {
        return MapBinder.newMapBinder(binder, com.google.inject.TypeLiteral.get(String.class),
                com.google.inject.TypeLiteral.get(HealthCheck.class), Names.named(READINESS));
    }

    @Override
    protected void configure() {
        liveness(binder());
        readiness(binder());
        routes(binder()).addBinding("/metrics").to(MetricsRoute.class);
        OptionalBinder.newOptionalBinder(binder(), Metrics.class).setBinding().to(MicrometerMetrics.class);
        // the store's pools, where the store module binds them (their HikariCP meters join /metrics)
        OptionalBinder.newOptionalBinder(binder(), ConnectionPools.class);
        // the store's claim history, where the store module binds it (the task page's timeline)
        OptionalBinder.newOptionalBinder(binder(), TaskHistory.class);
    }

    @Provides
    @Singleton
    PrometheusMeterRegistry registry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new NettyAllocatorMetrics(PooledByteBufAllocator.DEFAULT).bindTo(registry);
        return registry;
    }

    @Provides
    @Singleton
    MicrometerMetrics metrics(PrometheusMeterRegistry registry) {
        return new MicrometerMetrics(registry);
    }

    @Provides
    @Singleton
    StoreFigureGauges figures(TaskRepository repository, Clock clock, PrometheusMeterRegistry registry) {
        return new StoreFigureGauges(repository, clock, registry);
    }

    @Provides
    @Singleton
    MetricsRoute metricsRoute(PrometheusMeterRegistry registry, StoreFigureGauges figures,
            Optional<Provider<ConnectionPools>> pools) {
        return new MetricsRoute(registry, figures, new PoolMeters(pools, registry));
    }

    @Provides
    @Singleton
    AdminListener listener(AdminSettings settings, Map<String, AdminRoute> routes, TaskService tasks,
            TaskRepository repository, AuditLog audit, Optional<TaskHistory> history, Clock clock,
            PrometheusMeterRegistry registry, RuntimeSettings runtime,
            @com.google.inject.name.Named(LIVENESS) Map<String, HealthCheck> liveness,
            @com.google.inject.name.Named(READINESS) Map<String, HealthCheck> readiness) {
        ProbeRoutes probes = new ProbeRoutes();
        Map<String, AdminRoute> all = new java.util.HashMap<>(DashboardRoutes.of(tasks, repository, audit,
                history.orElse(TaskHistory.NONE), clock, registry, runtime.workerStaleAfter()));
        all.putAll(routes);
        all.put("/healthz", probes.route(liveness));
        all.put("/readyz", probes.route(readiness));
        return new AdminListener(settings, all);
    }
}
