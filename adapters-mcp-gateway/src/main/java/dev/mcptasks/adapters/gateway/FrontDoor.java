package dev.mcptasks.adapters.gateway;

import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.catalog.ToolCatalog;
import dev.mcptasks.ports.catalog.UpstreamRequests;
import dev.mcptasks.ports.metrics.Metrics;
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
        return create(tasks, changes, catalog, UpstreamRequests.NONE, clock, executor, settings, metrics);
    }

    /**
     * The front door passing resources, prompts, completion and the log level through to the upstream servers.
     *
     * @param upstream sends those requests to the upstream servers (and tells of their resource updates)
     */
    public static FrontDoor create(TaskService tasks, TaskChanges changes, ToolCatalog catalog,
            UpstreamRequests upstream, Clock clock, Executor executor, FrontSettings settings, Metrics metrics) {
        Objects.requireNonNull(upstream, "upstream");
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
        UpstreamCalls upstreamCalls = new UpstreamCalls(upstream);
        UpstreamRouter upstreamRouter = new UpstreamRouter(upstreamCalls, settings);
        Subscriptions subscriptions = new Subscriptions(upstreamCalls, upstreamRouter, upstream);
        Passthrough passthrough = new Passthrough(upstreamCalls, upstreamRouter, subscriptions);
        Front2025 front2025 = new Front2025(tasks, tools, calls, watcher, notifier, shapes, handoff, passthrough);
        TaskListens listens = new TaskListens(tasks, watcher, shapes);
        Front2026 front2026 = new Front2026(tasks, tools, calls, watcher, shapes, passthrough, listens);
        FrontRouter router = new FrontRouter(front2025, front2026, notifier, watcher, executor, subscriptions,
                listens);
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
