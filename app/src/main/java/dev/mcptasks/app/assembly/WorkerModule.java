package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.metrics.MeteringRepository;
import dev.mcptasks.core.metrics.MetricsListener;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.runtime.LogNotificationSink;
import dev.mcptasks.core.runtime.RuntimeListener;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.core.secret.RedactingRepository;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.secret.SecretRedactor;
import dev.mcptasks.ports.trace.Tracing;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * Binds one worker: its id, one MCP session per configured server, the two drivers, an executor for control calls
 * and the {@link WorkerRuntime}, whose store writes are logged as events ({@link EventLoggingRepository}). Transport factories come from the transport modules' map binder.
 * The notification sink is optional: a sink module (the webhook) sets it through the {@link OptionalBinder} declared
 * here; without one, attention events go to the log ({@link LogNotificationSink}).
 */
public final class WorkerModule extends AbstractModule {
    private final WorkerId worker;

    public WorkerModule(WorkerId worker) {
        this.worker = Objects.requireNonNull(worker, "worker");
    }

    @Override
    protected void configure() {
        bind(WorkerId.class).toInstance(worker);
        // Declares the map even when no transport module contributes (tests with fake drivers).
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class);
        // Declared even when no sink module contributes, so Optional<NotificationSink> is always injectable.
        OptionalBinder.newOptionalBinder(binder(), NotificationSink.class);
    }

    @Provides
    @Singleton
    McpSessions sessions(AppConfig config, Map<String, McpTransportFactory> factories, Clock clock,
            Metrics metrics, Tracing tracing) {
        return Workers.sessions(config, factories.values(), clock, metrics, tracing);
    }

    @Provides
    @Singleton
    TaskDriverRegistry drivers(AppConfig config, McpSessions sessions) {
        return Workers.drivers(config, sessions);
    }

    @Provides
    @Singleton
    RetentionLoop retention(Purger purger, AppConfig config, AuditLog audit, Clock clock) {
        return new RetentionLoop(purger, config.retention(), audit, worker, clock);
    }

    @Provides
    @Singleton
    ExecutorService executor() {
        return Workers.executor("mcp-tasks-worker");
    }

    @Provides
    @Singleton
    WorkerRuntime runtime(RuntimeSettings settings, TaskRepository repository, TaskDriverRegistry drivers,
            ServerDirectory servers, Clock clock, RandomSource random, IdGenerator ids, ExecutorService executor,
            Optional<NotificationSink> sink, TaskChanges changes, SecretRedactor secrets, Metrics metrics,
            Tracing tracing, TaskService tasks) {
        // the worker's writes go through the event log; client commands (submit, cancel) log nothing. Its committed
        // changes are announced to this process's readers (a gateway's held calls)
        RuntimeListener announcing = new RuntimeListener() {
            @Override
            public void taskChanged(TaskId task) {
                changes.announce(task);
            }

            @Override
            public void callProgress(TaskId task, CallProgress progress) {
                // what reaches a client live is redacted as what reaches the store is
                changes.progressed(task, new CallProgress(progress.progress(), progress.total(),
                        progress.message() == null ? null : secrets.redact(progress.message())));
            }
        };
        // no configured secret reaches the store (nor the event log) in what an upstream sent
        TaskRepository writes = new RedactingRepository(new EventLoggingRepository(
                new MeteringRepository(repository, metrics, clock)), secrets);
        WorkerRuntime runtime = new WorkerRuntime(worker, settings, writes, drivers, servers, clock,
                random, ids, executor, sink.orElseGet(LogNotificationSink::new), new MetricsListener(metrics, announcing),
                tracing);
        // a task submitted in this process (a gateway's call) is created claimed by this worker and sent at once
        tasks.claimSubmitsWith(runtime.submitClaims());
        metrics.gauge("worker_slots_in_use", "Capacity slots of this worker held by calls",
                () -> runtime.metrics().slotsInUse());
        metrics.gauge("worker_slots", "Capacity of this worker (maxConcurrentControlCalls)",
                () -> runtime.metrics().slotCapacity());
        metrics.counter("ownership_losses", "Claims this worker lost through a rejected, failed or stalled renewal",
                () -> runtime.metrics().ownershipLosses());
        return runtime;
    }
}
