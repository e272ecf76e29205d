package dev.mcptasks.app.cli;

import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.adapters.gateway.FrontDoor;
import dev.mcptasks.adapters.gateway.GatewaySettings;
import dev.mcptasks.adapters.gateway.HttpGateway;
import dev.mcptasks.adapters.gateway.StdioGateway;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerIds;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code gateway}: serves MCP in front of the configured servers (Streamable HTTP, and/or stdio), every tool call a
 * durable task, together with a worker unless {@code --no-worker}. Stops on SIGTERM or SIGINT (stdio: also at the end
 * of its input), the worker draining as {@code serve} does.
 */
@Command(name = "gateway", description = "Serve MCP in front of the configured servers: every tool call becomes a"
        + " durable task (Streamable HTTP on the gateway.port; --stdio for stdin/stdout). Runs a worker too unless"
        + " --no-worker.")
final class GatewayCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayCommand.class);
    /** How long answers still pending when stdin ends may take before the gateway stops. */
    private static final Duration STDIO_DRAIN = Duration.ofSeconds(5);

    @ParentCommand
    McpTasksCommand root;

    @Option(names = "--port", paramLabel = "PORT", description = "HTTP port (default: gateway.port, 8765; 0: any)")
    Integer port;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "HTTP bind address (default: gateway.host,"
            + " 127.0.0.1)")
    String host;

    @Option(names = "--stdio", description = "Serve MCP on stdin/stdout as gateway.localPrincipal (no HTTP unless"
            + " --port is given too).")
    boolean stdio;

    @Option(names = "--no-worker", description = "Serve tasks only; separate `serve` workers on the same database"
            + " drive them.")
    boolean noWorker;

    @Option(names = "--worker-id", paramLabel = "LABEL", description = "Label that starts the worker id (as serve).")
    String workerId;

    @Override
    public Integer call() throws InterruptedException, IOException {
        AppConfig config = root.config();
        if (port != null && (port < 0 || port > 65_535)) {
            throw new ConfigException("--port", "--port must be between 0 and 65535, was " + port);
        }
        boolean http = !stdio || port != null;
        WorkerId worker = noWorker ? null : workerId == null ? WorkerIds.generate() : labelled(workerId);
        try (Application app = root.context().applications().openGateway(config, worker)) {
            FrontDoor door = app.get(FrontDoor.class);
            GatewaySettings settings = app.get(GatewaySettings.class);
            if (host != null || port != null) {
                settings = settings.withBind(host != null ? host : settings.bindHost(),
                        port != null ? port : settings.port());
            }
            WorkerProcess process = worker == null ? null : new WorkerProcess(app);
            CountDownLatch stopped = new CountDownLatch(1);
            AtomicBoolean stopping = new AtomicBoolean();
            HttpGateway server = null;
            Optional<AdminListener> admin = Optional.empty();
            try {
                // bound first: an address that cannot be bound is a start-up error (exit 2) before any worker
                // registers or claims; calls that arrive before the worker starts wait for it, stored
                admin = AdminModules.start(app);
                if (http) {
                    server = startHttp(settings, door, app.get(Clock.class), app.get(FrontSessionStore.class));
                    LOG.info("gateway: MCP on {} for servers {}{}", server.endpoint(),
                            config.gateway().exposed().keySet(), worker == null ? ", no worker" : ", worker " + worker);
                }
                if (process != null) {
                    process.exitOnInternalThreadDeath(System::exit);
                    process.start();
                }
                Runnable stop = () -> {
                    if (stopping.compareAndSet(false, true)) {
                        LOG.info("gateway: shutdown requested");
                        stopped.countDown();
                    }
                };
                root.context().shutdownHooks().register(stop);
                if (stdio) {
                    serveStdio(door, config.gateway().localPrincipal(), settings.maxRequestBytes());
                    stop.run();
                }
                stopped.await();
            } finally {
                if (server != null) {
                    server.close();
                }
                if (process != null) {
                    process.stop();
                }
                admin.ifPresent(AdminListener::close);
            }
        }
        return ExitCodes.OK;
    }

    /** Sessions are kept in the task store, so they survive a restart and are served alike by every gateway on it. */
    private static HttpGateway startHttp(GatewaySettings settings, FrontDoor door, Clock clock,
            FrontSessionStore sessions) {
        try {
            return HttpGateway.start(settings, door, clock, sessions);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // the adapter's one-line reason: an open endpoint beyond loopback, or an address that cannot be bound
            throw new ConfigException("gateway", "gateway: " + e.getMessage());
        }
    }

    /** Serves stdio until its input ends; stdout carries JSON-RPC only (logs go to stderr). */
    private static void serveStdio(FrontDoor door, String principal, int maxLineBytes) throws IOException {
        InputStream in = System.in;
        OutputStream out = System.out;
        StdioGateway.of(door, principal, maxLineBytes, STDIO_DRAIN).serve(in, out);
    }

    private static WorkerId labelled(String label) {
        try {
            return WorkerIds.labelled(label);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--worker-id", e.getMessage());
        }
    }
}
