package dev.mcptasks.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.mcptasks.adapters.sqlite.SqliteSettings.Synchronous;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.system.SystemClock;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark (issue 9): for each database, db-scheduler and the real worker runtime burn down the same number of
 * no-op tasks (one and two of each), then the work (statements, transactions) per task of each, the claim rate with
 * few and many finished rows, renewal CPU, and submit-to-claim latency with the shipped settings. Prints a table of
 * figures and one of issue 9's goals with PASS/FAIL, and writes both to JSON.
 *
 * <pre>bench/run.sh [--quick] [--db sqlite|postgres|both] [--tasks N] [--sqlite-synchronous full|normal] ...</pre>
 *
 * Exit 0: measured (a FAIL verdict is a finding, not an error); 2: the bench could not run.
 */
public final class BenchMain {
    /** Latency samples per side of the purge phase (each waits 20 ms to 1 s, so the purge is still running). */
    private static final int PURGE_LATENCY_SAMPLES = 30;
    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println(BenchOptions.USAGE);
            System.exit(2);
            return;
        }
        try {
            run(options);
        } catch (Exception e) {
            System.err.println("bench: could not run: " + e);
            e.printStackTrace();
            System.exit(2);
        }
        System.exit(0);
    }

    static Map<String, Object> run(BenchOptions options) throws Exception {
        long start = System.nanoTime();
        List<Figure> figures = new ArrayList<>();
        Map<String, Object> databases = new LinkedHashMap<>();
        Files.createDirectories(options.dir());
        try (SystemClock clock = new SystemClock()) {
            for (String key : options.databases()) {
                List<String> runs = options.phasesOf(key);
                if (runs.isEmpty()) {
                    continue;
                }
                try (BenchDatabase db = open(key, options)) {
                    Map<String, Object> settings = new LinkedHashMap<>(db.settings());
                    Map<String, Double> phases = new LinkedHashMap<>();
                    figures.addAll(measure(db, clock, options.onlyPhases(runs), phases));
                    settings.put("phase_seconds", phases);
                    databases.put(key, settings);
                }
            }
        }
        figures.addAll(Ratios.of(figures));
        List<Goals.Verdict> goals = Goals.judge(figures, options.databases());
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("benchmark", "mcp-tasks bench (issue 9)");
        report.put("finished_at", Instant.now().toString());
        report.put("seconds", McpTasksBurnDown.round((System.nanoTime() - start) / 1e9));
        report.put("machine", machine());
        report.put("settings", options.describe());
        report.put("databases", databases);
        report.put("goals", goals);
        report.put("figures", figures);
        System.out.println(Table.render(figures));
        System.out.println(Goals.render(goals));
        System.out.println("machine: " + machine());
        Files.createDirectories(options.out().toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(options.out().toFile(), report);
        System.out.println("JSON: " + options.out());
        return report;
    }

    private static BenchDatabase open(String key, BenchOptions options) throws Exception {
        return switch (key) {
            case "sqlite" -> new SqliteBench(options.dir().resolve("sqlite"), options.sqliteSynchronous());
            case BenchOptions.NORMAL_VARIANT -> new SqliteBench(options.dir().resolve(key), Synchronous.NORMAL, key);
            default -> PostgresBench.start();
        };
    }

    private static List<Figure> measure(BenchDatabase db, SystemClock clock, BenchOptions options,
            Map<String, Double> phases) throws Exception {
        List<Figure> figures = new ArrayList<>();
        Phases progress = new Phases(db.key(), phases);
        int tasks = options.tasks();
        Budget budget = new Budget(options.timeBox(), options.probe());
        progress.next("pre-inserting " + tasks + " tasks through TaskService");
        McpTasksBurnDown burnDown = new McpTasksBurnDown(db, clock);
        double submits = burnDown.prepareTemplate("tpl", tasks);
        figures.add(new Figure(db.key(), "pre-insert", "TaskService.submit, 4 threads", McpTasksBurnDown.round(submits),
                "tasks/s", Map.of("tasks", tasks)));

        DbSchedulerBurnDown dbScheduler = new DbSchedulerBurnDown(db);
        DbSchedulerBurnDown.Polling fast = db.key().equals("postgres") ? DbSchedulerBurnDown.LOCK_AND_FETCH
                : DbSchedulerBurnDown.FAST_FETCH;
        RuntimeSettings shipped = McpTasksWorker.shipped();
        RuntimeSettings fastTick = McpTasksWorker.withTick(shipped, Duration.ofMillis(1));
        if (options.runs("burn-down")) {
            burnDowns(db, options, figures, progress, burnDown, dbScheduler, fast, shipped, fastTick, budget);
        }
        if (options.runs("work")) {
            progress.next("work per task, " + options.workTasks() + " tasks each");
            burnDown.prepareTemplate("work_tpl", options.workTasks());
            figures.add(burnDown.workPerTask("work_tpl", "work_mcp", "mcp-tasks, 1 worker, shipped settings", shipped,
                    options.workTasks(), budget));
            DbSchedulerBurnDown.Polling best = bestPolling(figures, db.key(), fast);
            figures.add(dbScheduler.workPerTask("work_dbs", best, options.workTasks(), budget));
        }
        if (options.runs("scale")) {
            if (!options.runs("burn-down")) {
                // the claim-scale databases are seeded with the reference burn-down's finished tasks
                figures.add(referenceBurnDown(progress, burnDown, fastTick, tasks, budget));
            }
            progress.next("claim scale: " + options.scaleSmall() + " vs " + options.scaleLarge() + " finished rows, "
                    + options.scalePending() + " pending");
            figures.addAll(new ClaimScale(db, burnDown).run("mcp_fast_1", options.scaleSmall(), options.scaleLarge(),
                    options.scalePending(), fastTick, budget));
        }
        if (options.runs("purge")) {
            if (!options.runs("burn-down") && !options.runs("scale")) {
                // the purged rows are copies of the reference burn-down's finished tasks, as the claim scale's
                figures.add(referenceBurnDown(progress, burnDown, fastTick, tasks, budget));
            }
            progress.next("claim under purge: " + options.scaleLarge() + " finished rows, " + options.scalePending()
                    + " pending");
            figures.addAll(new PurgeLoad(db, burnDown, clock).run("mcp_fast_1", options.scaleLarge(),
                    options.scalePending(), fastTick, budget, Math.min(options.latencySamples(), PURGE_LATENCY_SAMPLES)));
        }
        for (int inFlight : options.runs("renewals") ? options.renewalInFlight() : List.<Integer>of()) {
            if (inFlight > tasks) {
                System.err.println("bench [" + db.key() + "] renewal CPU for " + inFlight + " calls skipped: only "
                        + tasks + " tasks (--tasks)");
                continue;
            }
            progress.next("renewal CPU, " + inFlight + " calls in flight");
            figures.add(new RenewalCpu(db, clock).run("tpl", inFlight, options.renewalWindow()));
        }
        for (int inFlight : options.runs("polls") ? options.renewalInFlight() : List.<Integer>of()) {
            if (inFlight > tasks) {
                System.err.println("bench [" + db.key() + "] poll steady state for " + inFlight + " tasks skipped: only "
                        + tasks + " tasks (--tasks)");
                continue;
            }
            progress.next("poll steady state, " + inFlight + " remote tasks in flight");
            figures.add(new PollSteadyState(db, clock).run("tpl", inFlight, options.renewalWindow()));
        }
        if (options.runs("latency")) {
            progress.next("submit->claim latency, " + options.latencySamples() + " samples");
            figures.add(new SubmitLatency(db, clock).run("latency", options.latencySamples()));
        }
        if (options.runs("gateway")) {
            GatewayOverhead.Pace pace = GatewayOverhead.Pace.of(options.quick());
            progress.next("plain call direct, through a relay and through the gateway, " + GatewayOverhead.CALLERS
                    + " concurrent callers for " + pace.rateWindow().toSeconds() + " s after "
                    + pace.rateWarmUp().toSeconds() + " s of warm-up, then " + pace.samples() + " sequential calls"
                    + options.upstream().map(uri -> ", against the reference server and " + uri).orElse(""));
            figures.addAll(new GatewayOverhead(db, options.dir().resolve("gateway-" + db.key())).run(pace,
                    options.upstream()));
        }
        progress.next("done");
        return figures;
    }

    /** db-scheduler and mcp-tasks burning down the same pre-inserted tasks. */
    private static void burnDowns(BenchDatabase db, BenchOptions options, List<Figure> figures, Phases progress,
            McpTasksBurnDown burnDown, DbSchedulerBurnDown dbScheduler, DbSchedulerBurnDown.Polling fast,
            RuntimeSettings shipped, RuntimeSettings fastTick, Budget budget) throws Exception {
        int tasks = options.tasks();
        // a warm-up burn-down, not a figure, as mcp-tasks gets below: each scheduler's judged rows run compiled code
        progress.next("db-scheduler, warm-up (not judged)");
        dbScheduler.run("dbs_warmup", DbSchedulerBurnDown.DEFAULT, tasks, budget);
        progress.next("db-scheduler, defaults");
        figures.add(dbScheduler.run("dbs_default", DbSchedulerBurnDown.DEFAULT, tasks, budget));
        progress.next("db-scheduler, " + fast.label());
        figures.add(dbScheduler.run("dbs_fast", fast, tasks, budget));
        if (db.key().equals("postgres")) {
            // on SQLite a second scheduler only fights the first for the one write lock: db-scheduler's completions
            // then fail with SQLITE_BUSY and stay picked until dead-execution detection (measured: 3x slower)
            progress.next("db-scheduler, 2 schedulers, " + fast.label());
            figures.add(dbScheduler.run("dbs_fast_2", fast, 2, tasks, budget));
        }

        // the same warm-up for mcp-tasks: its first judged row would otherwise be the first run of its code
        progress.next("mcp-tasks, warm-up (not judged)");
        burnDown.run("tpl", "mcp_warmup", "warm-up", 1, shipped, tasks, budget);

        // the judged rows: what serve runs with when nothing is configured, one and two workers
        for (int workers = 1; workers <= 2; workers++) {
            String who = "mcp-tasks, " + workers + " worker" + (workers > 1 ? "s" : "") + " x "
                    + shipped.maxConcurrentControlCalls() + " slots";
            progress.next(who + ", shipped settings");
            figures.add(burnDown.run("tpl", "mcp_shipped_" + workers, who + ", shipped settings ("
                    + McpTasksWorker.describe(shipped) + ")", workers, shipped, tasks, budget));
        }
        // the reference row: the same worker polling every millisecond, i.e. what the runtime does when the tick is
        // not what limits it; its finished tasks also seed the claim-scale databases
        figures.add(referenceBurnDown(progress, burnDown, fastTick, tasks, budget));
    }

    /** One worker polling every millisecond: what the runtime does when the tick is not what limits it. */
    private static Figure referenceBurnDown(Phases progress, McpTasksBurnDown burnDown, RuntimeSettings fastTick,
            int tasks, Budget budget) throws Exception {
        progress.next("mcp-tasks, 1 worker, tick forced to 1 ms (reference)");
        return burnDown.run("tpl", "mcp_fast_1", "mcp-tasks, 1 worker x " + fastTick.maxConcurrentControlCalls()
                + " slots, tick forced to 1 ms (reference)", 1, fastTick, tasks, budget);
    }

    /** Prints each phase as it starts and keeps how long each took (for the JSON: where a run's time goes). */
    private static final class Phases {
        private final String db;
        private final Map<String, Double> seconds;
        private String current;
        private long startedAt;

        Phases(String db, Map<String, Double> seconds) {
            this.db = db;
            this.seconds = seconds;
        }

        void next(String phase) {
            long now = System.nanoTime();
            if (current != null) {
                seconds.put(current, McpTasksBurnDown.round(McpTasksBurnDown.seconds(now - startedAt)));
            }
            current = phase;
            startedAt = now;
            if (!phase.equals("done")) {
                System.err.println("bench [" + db + "] " + phase + "...");
            }
        }
    }

    /** The single-scheduler polling of db-scheduler's fastest run so far (its work per task is measured). */
    private static DbSchedulerBurnDown.Polling bestPolling(List<Figure> figures, String db,
            DbSchedulerBurnDown.Polling fallback) {
        return figures.stream()
                .filter(f -> f.database().equals(db) && f.measurement().equals("burn-down")
                        && Integer.valueOf(1).equals(f.details().get("schedulers")))
                .max(java.util.Comparator.comparingDouble(Figure::value))
                .map(f -> f.details().get("polling").equals(DbSchedulerBurnDown.DEFAULT.label())
                        ? DbSchedulerBurnDown.DEFAULT : fallback)
                .orElse(fallback);
    }

    static Map<String, Object> machine() {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            machine.put("memory_mib", os.getTotalMemorySize() / (1024 * 1024));
        }
        machine.put("max_heap_mib", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        machine.put("java", System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"));
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        return machine;
    }

}
