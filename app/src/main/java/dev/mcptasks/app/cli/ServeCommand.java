package dev.mcptasks.app.cli;

import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerIds;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.domain.WorkerId;
import java.util.Locale;
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
 * {@code serve}: runs one worker until SIGTERM or SIGINT, then stops claiming, drains within {@code drainSeconds},
 * cancellation-releases what remains and exits 0.
 */
@Command(name = "serve", description = "Run a worker until stopped (SIGTERM/SIGINT drain and exit 0).")
final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @ParentCommand
    McpTasksCommand root;

    @Option(names = "--worker-id", paramLabel = "LABEL", description = "Label that starts the worker id, which stays"
            + " unique per start: LABEL:host:pid:random (default: host:pid:random). 1 to 40 of A-Z a-z 0-9 . _ -")
    String workerId;

    @Override
    public Integer call() throws InterruptedException {
        AppConfig config = root.config();
        WorkerId worker = workerId == null ? WorkerIds.generate() : labelled(workerId);
        LOG.info("configuration from {}: store {}, servers {}", config.source(),
                config.database().kind().name().toLowerCase(Locale.ROOT), config.servers().keySet());
        try (Application app = root.context().applications().openWorker(config, worker)) {
            WorkerProcess process = new WorkerProcess(app);
            process.exitOnInternalThreadDeath(System::exit);
            Optional<AdminListener> admin = AdminModules.start(app);
            CountDownLatch stopped = new CountDownLatch(1);
            AtomicBoolean stopping = new AtomicBoolean();
            root.context().shutdownHooks().register(() -> {
                if (stopping.compareAndSet(false, true)) {
                    LOG.info("shutdown requested");
                    process.stop();
                    stopped.countDown();
                }
            });
            try {
                process.start();
                stopped.await();
            } finally {
                admin.ifPresent(AdminListener::close);
            }
        }
        return ExitCodes.OK;
    }

    /**
     * A restarted worker must not reuse its previous start's id: it would take the previous start's process-local
     * tasks (whose endpoint died with it, or still lives in a hung process) and its worker row as its own.
     */
    private static WorkerId labelled(String label) {
        try {
            return WorkerIds.labelled(label);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--worker-id", e.getMessage());
        }
    }
}
