package dev.mcptasks.bench;

import dev.mcptasks.adapters.sqlite.SqliteSettings.Synchronous;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The command line of the bench; --quick scales every size down to stay within two minutes.
 *
 * @param timeBox the longest a burn-down may run
 * @param probe after this long, a burn-down whose rate so far would not finish within {@code timeBox} stops there
 *     (its rate is then the rate over the probe; the figure says it was time-boxed)
 * @param workTasks tasks of the work-per-task runs (statements and transactions per task)
 * @param sqliteSynchronous SQLite's {@code synchronous} for both schedulers
 * @param only the phases to run ({@link #PHASES}; all by default): a developer measuring one change runs one phase
 * @param upstream an MCP server with an {@code echo} tool (server-everything, say) that the gateway phase measures
 *     against as well as the reference server in this JVM
 */
record BenchOptions(boolean quick, List<String> databases, int tasks, Duration timeBox, Duration probe,
        int latencySamples, int scaleSmall, int scaleLarge, int scalePending, List<Integer> renewalInFlight,
        Duration renewalWindow, int workTasks, Synchronous sqliteSynchronous, Path out, Path dir, List<String> only,
        Optional<URI> upstream) {

    static final List<String> PHASES = List.of("burn-down", "work", "scale", "renewals", "polls", "latency",
            "gateway", "purge");

    /**
     * SQLite once more with {@code synchronous = NORMAL} (the shipped store's default is {@code FULL}): db-scheduler
     * and mcp-tasks burn down again on it, so the comparison is reported under both settings, and the gateway's
     * plain call is measured again (what the setting buys a call). Only those phases run on it, and only when
     * SQLite's own run is {@code FULL}.
     */
    static final String NORMAL_VARIANT = "sqlite-normal";

    /** The phases that run on {@code database}. */
    List<String> phasesOf(String database) {
        if (!database.equals(NORMAL_VARIANT)) {
            return only;
        }
        if (sqliteSynchronous != Synchronous.FULL) {
            return List.of();
        }
        return only.stream().filter(phase -> phase.equals("burn-down") || phase.equals("gateway")).toList();
    }

    /** These options with only {@code phases} run. */
    BenchOptions onlyPhases(List<String> phases) {
        return new BenchOptions(quick, databases, tasks, timeBox, probe, latencySamples, scaleSmall, scaleLarge,
                scalePending, renewalInFlight, renewalWindow, workTasks, sqliteSynchronous, out, dir, phases, upstream);
    }

    /** Whether {@code phase} (one of {@link #PHASES}) runs. */
    boolean runs(String phase) {
        return only.contains(phase);
    }

    static final String USAGE = "usage: bench/run.sh [--quick] [--db sqlite|postgres|both] [--tasks N]"
            + " [--latency-samples N] [--work-tasks N] [--sqlite-synchronous full|normal]"
            + " [--scale-rows SMALL,LARGE] [--renewals N[,N...]] [--only PHASE[,PHASE...]] [--upstream URL] [--out FILE]"
            + " [--dir DIR]"
            + " (phases: burn-down, work, scale, renewals, polls, latency, gateway, purge; --renewals also sets how many"
            + " tasks the polls phase keeps in flight)";

    static BenchOptions parse(String... args) {
        boolean quick = false;
        String db = "both";
        Integer tasks = null;
        Integer samples = null;
        int[] scale = null;
        Integer workTasks = null;
        Synchronous synchronous = Synchronous.FULL;
        Path out = Path.of("bench/target/bench-results.json");
        Path dir = Path.of("bench/target/bench-run");
        List<Integer> renewals = null;
        List<String> only = PHASES;
        Optional<URI> upstream = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--db" -> db = value(args, ++i, "--db");
                case "--tasks" -> tasks = positive(value(args, ++i, "--tasks"), "--tasks");
                case "--latency-samples" -> samples = positive(value(args, ++i, "--latency-samples"),
                        "--latency-samples");
                case "--work-tasks" -> workTasks = positive(value(args, ++i, "--work-tasks"), "--work-tasks");
                case "--sqlite-synchronous" -> synchronous = synchronous(value(args, ++i, "--sqlite-synchronous"));
                case "--scale-rows" -> scale = pair(value(args, ++i, "--scale-rows"));
                case "--out" -> out = Path.of(value(args, ++i, "--out"));
                case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
                case "--renewals" -> renewals = java.util.Arrays.stream(value(args, ++i, "--renewals").split(","))
                        .map(part -> positive(part, "--renewals")).toList();
                case "--only" -> only = phases(value(args, ++i, "--only"));
                case "--upstream" -> upstream = Optional.of(upstream(value(args, ++i, "--upstream")));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        List<String> databases = switch (db) {
            case "sqlite" -> List.of("sqlite", NORMAL_VARIANT);
            case "postgres" -> List.of("postgres");
            case "both" -> List.of("sqlite", NORMAL_VARIANT, "postgres");
            default -> throw new IllegalArgumentException("--db must be sqlite, postgres or both, was '" + db + "'");
        };
        return new BenchOptions(quick, databases, tasks != null ? tasks : quick ? 1_000 : 10_000,
                quick ? Duration.ofSeconds(20) : Duration.ofSeconds(75),
                quick ? Duration.ofSeconds(4) : Duration.ofSeconds(8),
                samples != null ? samples : quick ? 10 : 25,
                scale != null ? scale[0] : 10_000, scale != null ? scale[1] : quick ? 100_000 : 1_000_000,
                quick ? 200 : 6_000, renewals != null ? renewals : quick ? List.of(1_000) : List.of(1_000, 10_000),
                quick ? Duration.ofSeconds(5) : Duration.ofSeconds(10),
                workTasks != null ? workTasks : quick ? 300 : 1_000, synchronous, out, dir, only, upstream);
    }

    Map<String, Object> describe() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("mode", quick ? "quick" : "full");
        settings.put("databases", databases);
        settings.put("tasks_per_burn_down", tasks);
        settings.put("burn_down_time_box_s", timeBox.toSeconds());
        settings.put("burn_down_probe_s", probe.toSeconds());
        settings.put("burn_down_rule", "until every task is finished, or the time box ends; after the probe, a"
                + " burn-down whose rate so far would not finish within the box stops (time_boxed)");
        settings.put("work_per_task_tasks", workTasks);
        settings.put("sqlite_synchronous", sqliteSynchronous.name() + " for both schedulers");
        settings.put("latency_samples", latencySamples);
        settings.put("claim_scale_finished_rows", List.of(scaleSmall, scaleLarge));
        settings.put("claim_scale_pending_tasks", scalePending);
        settings.put("renewal_in_flight", renewalInFlight);
        settings.put("renewal_window_s", renewalWindow.toSeconds());
        settings.put("phases", only);
        settings.put("gateway_upstreams", upstream.map(uri -> List.of("reference server (this JVM)", uri.toString()))
                .orElse(List.of("reference server (this JVM)")));
        settings.put("driver", "in-process no-op driver, create answer already terminal (completed)");
        settings.put("mcp_tasks_runtime", "WorkerRuntime as in Workers/CrashableWorker, shipped settings ("
                + McpTasksWorker.describe(McpTasksWorker.shipped()) + "); the reference row changes only the tick (1 ms);"
                + " two workers are two WorkerRuntimes in this process, each with its own store and pools");
        settings.put("db_scheduler", "db-scheduler " + DbSchedulerBurnDown.VERSION + ", 8 threads and a pool of 12"
                + " per scheduler, one-time no-op task; two schedulers are two Schedulers in this process");
        return settings;
    }

    private static Synchronous synchronous(String text) {
        return switch (text) {
            case "full" -> Synchronous.FULL;
            case "normal" -> Synchronous.NORMAL;
            default -> throw new IllegalArgumentException("--sqlite-synchronous must be full or normal, was '" + text
                    + "'");
        };
    }

    private static URI upstream(String text) {
        try {
            URI uri = new URI(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (java.net.URISyntaxException e) {
            // answered below
        }
        throw new IllegalArgumentException("--upstream must be an http(s) URL of an MCP server's endpoint (e.g."
                + " http://127.0.0.1:3001/mcp), was '" + text + "'");
    }

    private static List<String> phases(String text) {
        List<String> phases = List.of(text.split(","));
        for (String phase : phases) {
            if (!PHASES.contains(phase)) {
                throw new IllegalArgumentException("--only takes phases of " + PHASES + ", was '" + phase + "'");
            }
        }
        return phases;
    }

    private static int[] pair(String text) {
        String[] parts = text.split(",");
        if (parts.length != 2) {
            throw new IllegalArgumentException("--scale-rows needs SMALL,LARGE, was '" + text + "'");
        }
        return new int[] {positive(parts[0], "--scale-rows"), positive(parts[1], "--scale-rows")};
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return args[i];
    }

    private static int positive(String text, String name) {
        try {
            int value = Integer.parseInt(text);
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a positive number, was '" + text + "'");
        }
    }
}
