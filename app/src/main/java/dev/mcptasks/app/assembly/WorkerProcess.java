package dev.mcptasks.app.assembly;

import dev.mcptasks.app.lifecycle.LifecycleListener;
import dev.mcptasks.app.lifecycle.LifecycleManager;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.domain.DurationText;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running parts of one worker in start order: MCP sessions, the call executor, the runtime. Stopping reverses
 * it: the runtime stops claiming, drains within {@code drainSeconds} and cancellation-releases what remains; then the
 * executor and the sessions (their child processes and HTTP sessions) end.
 */
public final class WorkerProcess {
    /** The exit status of a worker whose internal thread died (EX_SOFTWARE). */
    public static final int EXIT_INTERNAL_ERROR = 70;
    private static final Logger LOG = LoggerFactory.getLogger(WorkerProcess.class);
    /** Beyond the drain bound, releasing claims and deregistering are short store writes. */
    private static final Duration STOP_MARGIN = Duration.ofSeconds(10);

    private final LifecycleManager lifecycle = new LifecycleManager();
    private final WorkerRuntime runtime;
    private final TaskRepository repository;
    private final Duration stopBound;
    private final AtomicBoolean dying = new AtomicBoolean();
    private final ThreadDeaths deaths;

    public WorkerProcess(Application app) {
        this.runtime = app.get(WorkerRuntime.class);
        this.repository = app.get(TaskRepository.class);
        this.deaths = app.get(ThreadDeaths.class);
        Duration stopBound = app.get(RuntimeSettings.class).drain().plus(STOP_MARGIN);
        this.stopBound = stopBound;
        McpSessions sessions = app.get(McpSessions.class);
        ExecutorService executor = app.get(ExecutorService.class);
        lifecycle.add("MCP sessions", LifecycleListener.closing(sessions));
        lifecycle.add("call executor", LifecycleListener.closing(() -> {
            executor.shutdown();
            if (!executor.awaitTermination(stopBound.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("calls still running after {}; abandoning them at exit", DurationText.of(stopBound));
            }
        }));
        lifecycle.add("retention", app.get(RetentionLoop.class));
        lifecycle.add("worker runtime", new LifecycleListener() {
            @Override
            public void start() {
                runtime.start();
            }

            @Override
            public void stop() throws Exception {
                try {
                    runtime.stop().get(stopBound.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    LOG.warn("worker {} did not finish stopping within {}", runtime.workerId(), stopBound);
                }
            }
        });
    }

    public WorkerRuntime runtime() {
        return runtime;
    }

    public void start() {
        LOG.info("worker {} starting", runtime.workerId());
        lifecycle.start();
        LOG.info("worker {} serving", runtime.workerId());
    }

    /**
     * From now on an error that kills any thread of this process (an {@code OutOfMemoryError} in a timer, a store's
     * work-arrival thread, the HTTP client's selector) ends the worker instead of leaving it registered and live
     * while part of it is dead: one log line names the thread and the error, the worker stops claiming, gives up its
     * claims and deregisters (bounded), then {@code exit} is called with {@link #EXIT_INTERNAL_ERROR}. An exception
     * (not an error) that ends a thread is only logged: pools replace such threads.
     */
    public void exitOnInternalThreadDeath(IntConsumer exit) {
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            if (!(error instanceof Error)) {
                LOG.warn("thread '{}' ended by {}", thread.getName(), error.toString());
                return;
            }
            // /healthz answers 503 from now on, while the worker stops
            deaths.record(thread, error);
            if (!dying.compareAndSet(false, true)) {
                return;
            }
            LOG.error("worker {}: internal thread '{}' died of {}; stopping: no more claims, claims released,"
                    + " deregistered, exit {}", runtime.workerId(), thread.getName(), error, EXIT_INTERNAL_ERROR);
            Runnable end = () -> {
                try {
                    stopForDeath();
                } finally {
                    exit.accept(EXIT_INTERNAL_ERROR);
                }
            };
            try {
                Thread ender = new Thread(end, "mcp-tasks-fatal-stop");
                ender.setDaemon(true);
                ender.start();
            } catch (Error cannotStart) {
                end.run();
            }
        });
    }

    private void stopForDeath() {
        try {
            runtime.stop().get(stopBound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception | Error e) {
            LOG.warn("worker {}: stopping after the thread death failed ({}); deregistering directly",
                    runtime.workerId(), e.toString());
            try {
                repository.removeWorker(runtime.workerId());
            } catch (RuntimeException removal) {
                LOG.warn("worker {}: could not deregister: {}", runtime.workerId(), removal.toString());
            }
        }
    }

    /** Idempotent: the second call finds nothing left to stop. */
    public void stop() {
        LOG.info("worker {} stopping: no new claims, draining running calls", runtime.workerId());
        lifecycle.stop();
        LOG.info("worker {} stopped", runtime.workerId());
    }
}
