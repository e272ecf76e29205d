package dev.mcptasks.app.demo;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerMain;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * The demo: a fresh SQLite file, the reference server over HTTP (in this process) and stdio (a child per worker), two
 * in-process workers with a 4 s lease, ~30 tasks of mixed behaviour, user cancellations, and one worker crashed
 * mid-flight. Ends with a summary and an invariant check; exit 0 only when every invariant holds. With an admin
 * listener, its {@code /metrics} and dashboard show the workers' work while the demo runs.
 */
public final class DemoRun {
    /** Short enough that the crash is recovered within the demo, long enough for renewals to matter. */
    static final RuntimeSettings SETTINGS = new RuntimeSettings(Duration.ofSeconds(4), Duration.ofSeconds(1), 8,
            Duration.ofSeconds(4), Duration.ofSeconds(1), 3, 8L * 1024 * 1024, Duration.ofSeconds(2),
            Duration.ofMillis(250), Duration.ofSeconds(3));
    private static final Duration DEADLINE = Duration.ofSeconds(50);
    /** The crash waits for worker-b to run remote tasks, but not forever. */
    private static final Duration CRASH_AT_LATEST = Duration.ofSeconds(20);

    private final PrintWriter out;
    private final boolean terminal;
    private final Integer adminPort;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * @param adminPort the port of the admin listener on 127.0.0.1 ({@code /metrics} and the dashboard, while the demo
     *     runs; 0: any free port), or null for none
     */
    public DemoRun(PrintWriter out, boolean terminal, Integer adminPort) {
        this.out = out;
        this.terminal = terminal;
        this.adminPort = adminPort;
    }

    /** Runs the demo; returns the process exit code. */
    public int run() throws IOException, InterruptedException {
        quietLogs();
        Path dir = Files.createTempDirectory("mcp-tasks-demo-");
        long started = System.nanoTime();
        try (ReferenceServer httpServer = new ReferenceServer(ReferenceServerOptions.defaults()
                .withPollIntervalMs(500))) {
            URI endpoint = httpServer.startHttp(0);
            Path configFile = dir.resolve("mcp-tasks.json");
            Files.writeString(configFile, json.writerWithDefaultPrettyPrinter().writeValueAsString(config(dir,
                    endpoint)));
            AppConfig config = new ConfigLoader(System::getenv, dir).load(configFile);
            out.println("mcp-tasks demo: database " + dir.resolve("demo.db") + ", reference server " + endpoint
                    + " and over stdio, lease " + SETTINGS.lease().toSeconds() + " s");
            try (Application app = AppRoot.production().openObserved(config)) {
                Optional<AdminListener> admin = AdminModules.start(app);
                try {
                    admin.ifPresent(listener -> {
                        String root = "http://127.0.0.1:" + listener.address().getPort();
                        out.println("admin listener (while the demo runs): metrics " + root + "/metrics, dashboard "
                                + root + "/ui/");
                    });
                    return runWith(app, config, started, configFile);
                } finally {
                    admin.ifPresent(AdminListener::close);
                }
            }
        }
    }

    private int runWith(Application app, AppConfig config, long started, Path configFile)
            throws InterruptedException {
        TaskService service = app.get(TaskService.class);
        TaskRepository store = app.get(TaskRepository.class);
        Clock clock = app.get(Clock.class);
        Collection<McpTransportFactory> factories = app.injector()
                .getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {})).values();
        AuditingRepository audit = new AuditingRepository(store);
        Metrics metrics = app.get(Metrics.class);

        Map<TaskId, DemoScenario.DemoTask> submitted = new LinkedHashMap<>();
        for (DemoScenario.DemoTask task : DemoScenario.tasks()) {
            TaskRecord record = service.submit(task.server(), task.tool(), task.arguments(), null);
            submitted.put(record.id(), task);
            if (task.cancel() == DemoScenario.Cancel.BEFORE_SENT) {
                service.requestCancel(record.id());
            }
        }
        out.println("submitted " + submitted.size() + " tasks; starting worker-a and worker-b");
        // worker-b is paused once past its lease while writing a result, and resumes after worker-a took the task
        // over: the fence refuses its stale write. It crashes only after that
        PausedWorkerStage pause = new PausedWorkerStage(audit, audit);
        DemoWorker a = new DemoWorker(WorkerId.of("worker-a"), SETTINGS, audit, config, factories, clock, metrics);
        DemoWorker b = new DemoWorker(WorkerId.of("worker-b"), SETTINGS, pause, config, factories, clock, metrics);
        ProgressView view = new ProgressView(out, terminal);
        List<TaskId> cancelled = new ArrayList<>();
        long workersStarted = System.nanoTime();
        a.start();
        b.start();
        try {
            while (true) {
                long elapsed = System.nanoTime() - started;
                Map<TaskStatus, Long> counts = store.countByStatus();
                view.render(elapsed, counts, List.of(a.metrics(), b.metrics()), audit.recoveries(),
                        audit.staleAttempts() - audit.staleAccepted());
                pauseEvents(pause, view, elapsed, audit);
                if (allTerminal(counts) || elapsed > DEADLINE.toNanos()) {
                    break;
                }
                cancelRunning(service, submitted, cancelled, view, elapsed);
                // worker-b crashes once its staged pause is over (never while paused: its held write must reach the
                // store to be refused), as soon as it runs remote tasks, or when it has waited long enough
                boolean late = System.nanoTime() - workersStarted > CRASH_AT_LATEST.toNanos();
                if (!b.crashed() && pause.phase() != PausedWorkerStage.Phase.PAUSED
                        && (late || (pause.phase() == PausedWorkerStage.Phase.RESUMED
                        && ownsRunningTasks(store, b.id())))) {
                    view.event(elapsed, "worker-b crashes with " + b.metrics().slotsInUse()
                            + " calls in flight: its claims stay until their leases expire, its stdio server dies");
                    b.crash();
                }
                Thread.sleep(250);
            }
        } finally {
            view.finish();
            a.stop(SETTINGS.drain().plusSeconds(5).toMillis());
            b.stop(1000);
        }
        return report(store, submitted, audit, a, b, System.nanoTime() - started, configFile);
    }

    private PausedWorkerStage.Phase shownPhase = PausedWorkerStage.Phase.WAITING;

    /** Tells the staged pause as it happens: paused, then the stale write refused. */
    private void pauseEvents(PausedWorkerStage pause, ProgressView view, long elapsed, AuditingRepository audit) {
        PausedWorkerStage.Phase phase = pause.phase();
        if (phase == shownPhase) {
            return;
        }
        if (shownPhase == PausedWorkerStage.Phase.WAITING) {
            view.event(elapsed, "worker-b pauses (as in a long GC or SIGSTOP) while writing the poll result of "
                    + pause.held().taskId() + ": no renewals, its lease runs out");
        }
        if (phase == PausedWorkerStage.Phase.RESUMED) {
            view.event(elapsed, "worker-a claimed " + pause.held().taskId() + " after the lease ran out; worker-b resumes and"
                    + " writes from its stale claim: refused by the fence (" + (audit.staleAttempts()
                    - audit.staleAccepted()) + " stale writes refused so far)");
        }
        shownPhase = phase;
    }

    /** The simulated user cancels each such task once it is running remotely. */
    private static void cancelRunning(TaskService service, Map<TaskId, DemoScenario.DemoTask> submitted,
            List<TaskId> cancelled, ProgressView view, long elapsed) {
        submitted.forEach((id, task) -> {
            if (task.cancel() == DemoScenario.Cancel.WHILE_RUNNING && !cancelled.contains(id)
                    && service.find(id).map(record -> record.status() == TaskStatus.WORKING).orElse(false)) {
                service.requestCancel(id);
                cancelled.add(id);
                view.event(elapsed, "the user cancels " + id + " (" + task.server() + ")");
            }
        });
    }

    private int report(TaskRepository store, Map<TaskId, DemoScenario.DemoTask> submitted, AuditingRepository audit,
            DemoWorker a, DemoWorker b, long elapsed, Path configFile) {
        Map<TaskRecord, String> groups = new LinkedHashMap<>();
        submitted.forEach((id, task) -> groups.put(store.find(id).orElseThrow(), task.group()));
        out.printf("%nSummary after %.1f s%n", elapsed / 1e9);
        DemoSummary.printOutcomes(out, groups);
        for (DemoWorker worker : List.of(a, b)) {
            var metrics = worker.metrics();
            out.printf("%s%s: %d claims, %d renewals, %d fenced writes, %d ownership losses%n",
                    worker.id(), worker.crashed() ? " (crashed)" : "", metrics.claims(),
                    metrics.renewals(), metrics.fencedWrites(), metrics.ownershipLosses());
        }
        out.println(audit.recoveries() + " claims recovered from expired leases (the crashed worker's, or stalled calls)");
        out.println((audit.staleAttempts() - audit.staleAccepted()) + " stale writes refused by the fence (a worker"
                + " that resumed after its claim was taken over)");
        DemoSummary.explanations(groups.keySet()).forEach(out::println);
        out.println("Invariants:");
        boolean allHold = true;
        for (DemoSummary.Check check : DemoSummary.checks(new ArrayList<>(groups.keySet()), audit)) {
            out.println("  [" + (check.holds() ? "ok" : "FAILED") + "] " + check.description());
            allHold &= check.holds();
        }
        out.println("Inspect: bin/mcp-tasks --config " + configFile + " list");
        out.flush();
        return allHold ? 0 : 1;
    }

    /** Whether the worker has created remote tasks that are still running (so its crash strands some). */
    private static boolean ownsRunningTasks(TaskRepository store, WorkerId worker) {
        return store.list(new TaskQuery(TaskStatus.WORKING, null, 100, null)).stream()
                .filter(task -> worker.equals(task.state().endpointOwner()) || worker.equals(task.lease().owner()))
                .count() >= 2;
    }

    private static boolean allTerminal(Map<TaskStatus, Long> counts) {
        return counts.entrySet().stream().allMatch(entry -> entry.getKey().isTerminal() || entry.getValue() == 0);
    }

    private ObjectNode config(Path dir, URI endpoint) {
        ObjectNode root = json.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("demo.db"));
        ObjectNode servers = root.putObject("mcpServers");
        ObjectNode stdio = servers.putObject(DemoScenario.STDIO);
        stdio.put("command", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        stdio.putArray("args").add("-XX:+UseSerialGC").add("-XX:TieredStopAtLevel=1").add("-Xshare:auto")
                .add("-cp").add(System.getProperty("java.class.path")).add(ReferenceServerMain.class.getName())
                .add("--stdio").add("--poll-interval-ms").add("500");
        servers.putObject(DemoScenario.HTTP).put("url", endpoint.toString()).put("sessionBound", false)
                .put("toolCallTimeoutSeconds", 20);
        ObjectNode jobs = servers.putObject(DemoScenario.JOBS).put("url", endpoint.toString())
                .put("sessionBound", false).put("driver", "ordinary-tools");
        jobs.putObject("toolset").put("submit", "submit_job").put("status", "job_status").put("cancel", "cancel_job");
        if (adminPort != null) {
            root.putObject("admin").put("host", "127.0.0.1").put("port", adminPort);
        }
        return root;
    }

    /** The progress view is the demo's output; runtime chatter (a crashed worker's failures) would drown it. */
    private static void quietLogs() {
        if (System.getenv("MCP_TASKS_LOG_LEVEL") == null
                && LoggerFactory.getLogger("dev.mcptasks") instanceof Logger logger) {
            logger.setLevel(Level.ERROR);
        }
    }
}
