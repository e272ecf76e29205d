package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.service.TaskService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * One chaos run on one database: the reference server, three serve processes, the user submitting and cancelling,
 * faults for the window, then healing, a bounded wait for every task to end, SIGTERM to all, and the checks.
 */
final class ChaosRun {
    static final int WORKERS = 3;
    /** Slack between the worker's clock reading in a fence and the trigger's clock (same machine). */
    private static final long CLOCK_SLACK_MS = 1_000;

    private final ChaosProfile profile;
    private final long seed;
    private final Path appJar;
    private final Path dir;
    private final String runId;
    private final List<String> javaOptions;
    private final String generation;

    /**
     * @param runId marks every JVM of this run ({@code -Dmcp.tasks.chaos.run=ID}) for cleanup and orphan checks
     * @param generation what the reference server serves: {@code 2025-11-25}, {@code 2026-07-28} or {@code dual}
     */
    ChaosRun(ChaosProfile profile, long seed, Path appJar, Path dir, String runId, List<String> javaOptions,
            String generation) {
        this.profile = profile;
        this.seed = seed;
        this.appJar = appJar;
        this.dir = dir;
        this.runId = runId;
        this.javaOptions = javaOptions;
        this.generation = generation;
    }

    RunReport run(ChaosStore store) throws IOException, InterruptedException, SQLException {
        long started = System.currentTimeMillis();
        Files.createDirectories(dir);
        Path callLog = dir.resolve("server-calls.jsonl");
        FaultLog faults = new FaultLog();
        Random random = new Random(seed);
        List<Violation> processViolations = new ArrayList<>();
        Map<String, Integer> cancels = new TreeMap<>();
        int submitted;
        int incarnations;
        try (ProcessControl processes = new ProcessControl(runId, javaOptions)) {
            ReferenceServerProcess server = ReferenceServerProcess.start(processes, appJar, callLog,
                    dir.resolve("reference-server.log"), generation);
            Path harnessConfig = dir.resolve("config-harness.json");
            Files.writeString(harnessConfig, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(
                    WorkerPool.config(store, server.endpoint(), profile, "chaos-harness")));
            AppConfig config = ConfigLoader.system().load(harnessConfig);
            WorkerPool pool = new WorkerPool(processes, appJar, dir, store, server.endpoint(), profile, faults);
            try (Application app = AppRoot.production().openClient(config)) {
                // the client application migrated the store; the audit goes on before any worker or task exists
                try (Connection connection = store.connect()) {
                    AuditTrail.install(connection, store.postgres());
                }
                pool.start(WORKERS);
                // faults on JVMs that are still starting would exercise nothing: the window opens once all serve
                pool.awaitAllRegistered();
                Submitter user = new Submitter(app.get(TaskService.class));
                long windowMs = profile.faultWindow().toMillis();
                user.start(TaskPlan.mix(random, profile.tasks(), windowMs * 7 / 10, profile.leaseSeconds(),
                        !ChaosMain.GENERATIONS.get(0).equals(generation)));
                FaultInjector injector = new FaultInjector(pool, profile, random.nextLong());
                injector.run(System.currentTimeMillis() + windowMs);
                injector.finish();
                user.finish();
                pool.healAll();
                awaitAllTerminal(store, user.submittedCount());
                pool.termAll();
                submitted = user.submittedCount();
                user.cancels().forEach((outcome, count) -> cancels.put(outcome.name().toLowerCase(), count.get()));
                if (user.busyRetries() > 0) {
                    cancels.put("(user writes retried on a busy store)", user.busyRetries());
                }
                user.errors().forEach(error -> processViolations.add(new Violation("harness", "user", error)));
            }
            incarnations = pool.incarnations();
            processViolations.addAll(pool.violations());
            server.stop();
            for (ProcessHandle survivor : processes.survivors()) {
                processViolations.add(new Violation("orphan_process", "pid " + survivor.pid(),
                        survivor.info().commandLine().orElse("?")));
            }
        }
        ServerJournal journal = ServerJournal.read(callLog);
        List<StoreRow> rows;
        List<AuditEntry> audit;
        try (Connection connection = store.connect()) {
            rows = StoreReader.read(connection);
            audit = AuditTrail.read(connection);
        }
        List<CheckResult> checks = List.of(
                StoreChecks.check(rows, journal, true),
                OverlapChecks.check(journal, faults, rows),
                RequestIdChecks.check(journal),
                AuditChecks.check(audit, Set.of("chaos-harness"), CLOCK_SLACK_MS));
        Map<FaultEvent.Kind, Long> faultCounts = new EnumMap<>(FaultEvent.Kind.class);
        for (FaultEvent.Kind kind : FaultEvent.Kind.values()) {
            faultCounts.put(kind, faults.count(kind));
        }
        writeFaultLog(faults);
        return new RunReport(store.name(), profile.name(), generation, seed, System.currentTimeMillis() - started,
                submitted,
                cancels, faultCounts, incarnations, checks, processViolations);
    }

    /** Polls the store until every submitted task is terminal or the settle timeout passes. */
    private void awaitAllTerminal(ChaosStore store, int submitted) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + profile.settleTimeout().toNanos();
        try (Connection connection = store.connect()) {
            while (System.nanoTime() < deadline) {
                List<StoreRow> rows = StoreReader.read(connection);
                if (rows.size() >= submitted && rows.stream().allMatch(StoreRow::terminal)) {
                    return;
                }
                Thread.sleep(500);
            }
        }
    }

    private void writeFaultLog(FaultLog faults) throws IOException {
        List<String> lines = new ArrayList<>();
        for (FaultEvent event : faults.events()) {
            lines.add(event.atMs() + " " + event.tag() + " " + event.kind() + " " + event.detail());
        }
        Files.write(dir.resolve("faults.log"), lines);
    }
}
