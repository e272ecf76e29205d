package dev.mcptasks.gateway;

import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.catalog.ToolCatalog;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The gateway's protocol layer: an MCP server for both protocol generations (2025-11-25 sessions with the tasks
 * utility, 2026-07-28 stateless requests with the tasks extension) whose every tool call is a durable task of the
 * calling principal, answered from the store. The transports hand it parsed, authenticated messages through
 * {@link #dispatcher()}.
 */
public final class FrontDoor {
    private final FrontDispatcher dispatcher;
    private final TaskWatcher watcher;
    private final Metrics metrics;

    private FrontDoor(FrontDispatcher dispatcher, TaskWatcher watcher, Metrics metrics) {
        this.dispatcher = dispatcher;
        this.watcher = watcher;
        this.metrics = metrics;
    }

    /**
     * @param tasks the task service over the shared store
     * @param changes tells of committed task changes, so held calls and followed tasks are answered from the commit
     * @param catalog lists the exposed upstream servers' tools
     * @param clock times the safety-net store polls of blocked calls and status notifications
     * @param executor runs the handlers' store reads and writes (never a transport's I/O thread nor the clock's
     *     timer thread); a small pool is enough, no thread waits for a task
     * @param settings what is exposed and how it is paced
     */
    public static FrontDoor create(TaskService tasks, TaskChanges changes, ToolCatalog catalog, Clock clock,
            Executor executor, FrontSettings settings) {
        return create(tasks, changes, catalog, clock, executor, settings, Metrics.NONE);
    }

    /** {@link #create(TaskService, TaskChanges, ToolCatalog, Clock, Executor, FrontSettings)} telling metrics. */
    public static FrontDoor create(TaskService tasks, TaskChanges changes, ToolCatalog catalog, Clock clock,
            Executor executor, FrontSettings settings, Metrics metrics) {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(tasks, "tasks");
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(settings, "settings");
        FrontCatalog tools = new FrontCatalog(catalog, clock, settings);
        TaskWatcher watcher = new TaskWatcher(tasks, changes, clock, executor, settings.storePollInterval());
        TaskShapes shapes = new TaskShapes(settings);
        StatusNotifier notifier = new StatusNotifier(watcher, shapes);
        ToolCalls calls = new ToolCalls(tasks, tools, executor, new QuotaGate(settings.quotas(), tasks, clock,
                settings.clientPollIntervalMs() / 1000));
        Handoff handoff = settings.handoffAfter() == null ? null
                : new Handoff(tasks, watcher, shapes, settings.handoffAfter());
        LegacyFront legacy = new LegacyFront(tasks, tools, calls, watcher, notifier, shapes, handoff);
        ExtensionFront extension = new ExtensionFront(tasks, tools, calls, watcher, shapes);
        FrontRouter router = new FrontRouter(legacy, extension, notifier, watcher, executor);
        return new FrontDoor(new MeteredDispatcher(router, metrics, clock), watcher, metrics);
    }

    FrontDispatcher dispatcher() {
        return dispatcher;
    }

    Metrics metrics() {
        return metrics;
    }

    /** How many waiters (blocked calls, followed tasks) read the store on each sweep now. */
    int watching() {
        return watcher.watching();
    }
}
