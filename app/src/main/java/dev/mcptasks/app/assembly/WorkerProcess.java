package dev.mcptasks.app.assembly;

import dev.mcptasks.app.lifecycle.LifecycleListener;
import dev.mcptasks.app.lifecycle.LifecycleManager;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.mcp.McpSessions;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running parts of one worker in start order: MCP sessions, the call executor, the runtime. Stopping reverses
 * it: the runtime stops claiming, drains within {@code drainSeconds} and cancellation-releases what remains; then the
 * executor and the sessions (their child processes and HTTP sessions) end.
 */
public final class WorkerProcess {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerProcess.class);
    /** Beyond the drain bound, releasing claims and deregistering are short store writes. */
    private static final Duration STOP_MARGIN = Duration.ofSeconds(10);

    private final LifecycleManager lifecycle = new LifecycleManager();
    private final WorkerRuntime runtime;

    public WorkerProcess(Application app) {
        this.runtime = app.get(WorkerRuntime.class);
        Duration stopBound = app.get(RuntimeSettings.class).drain().plus(STOP_MARGIN);
        McpSessions sessions = app.get(McpSessions.class);
        ExecutorService executor = app.get(ExecutorService.class);
        lifecycle.add("MCP sessions", LifecycleListener.closing(sessions));
        lifecycle.add("call executor", LifecycleListener.closing(() -> {
            executor.shutdown();
            if (!executor.awaitTermination(stopBound.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("calls still running after {}; abandoning them at exit", stopBound);
            }
        }));
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

    /** Idempotent: the second call finds nothing left to stop. */
    public void stop() {
        LOG.info("worker {} stopping: no new claims, draining running calls", runtime.workerId());
        lifecycle.stop();
        LOG.info("worker {} stopped", runtime.workerId());
    }
}
