package dev.mcptasks.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The command line of the bench; --quick scales every size down to stay within two minutes. */
record BenchOptions(boolean quick, List<String> databases, int tasks, Duration timeBox, Duration shippedBox,
        int latencySamples, int scaleSmall, int scaleLarge, int scalePending, List<Integer> renewalInFlight,
        Duration renewalWindow, Path out, Path dir) {

    static final String USAGE = "usage: bench/run.sh [--quick] [--db sqlite|postgres|both] [--tasks N]"
            + " [--latency-samples N]"
            + " [--scale-rows SMALL,LARGE] [--out FILE] [--dir DIR]";

    static BenchOptions parse(String... args) {
        boolean quick = false;
        String db = "both";
        Integer tasks = null;
        Integer samples = null;
        int[] scale = null;
        Path out = Path.of("bench/target/bench-results.json");
        Path dir = Path.of("bench/target/bench-run");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--db" -> db = value(args, ++i, "--db");
                case "--tasks" -> tasks = positive(value(args, ++i, "--tasks"), "--tasks");
                case "--latency-samples" -> samples = positive(value(args, ++i, "--latency-samples"),
                        "--latency-samples");
                case "--scale-rows" -> scale = pair(value(args, ++i, "--scale-rows"));
                case "--out" -> out = Path.of(value(args, ++i, "--out"));
                case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        List<String> databases = switch (db) {
            case "sqlite" -> List.of("sqlite");
            case "postgres" -> List.of("postgres");
            case "both" -> List.of("sqlite", "postgres");
            default -> throw new IllegalArgumentException("--db must be sqlite, postgres or both, was '" + db + "'");
        };
        return new BenchOptions(quick, databases, tasks != null ? tasks : quick ? 1_000 : 10_000,
                quick ? Duration.ofSeconds(20) : Duration.ofSeconds(75),
                quick ? Duration.ofSeconds(4) : Duration.ofSeconds(8),
                samples != null ? samples : quick ? 10 : 25,
                scale != null ? scale[0] : 10_000, scale != null ? scale[1] : quick ? 100_000 : 1_000_000,
                quick ? 500 : 2_000, quick ? List.of(1_000) : List.of(1_000, 10_000),
                quick ? Duration.ofSeconds(5) : Duration.ofSeconds(10), out, dir);
    }

    Map<String, Object> describe() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("mode", quick ? "quick" : "full");
        settings.put("databases", databases);
        settings.put("tasks_per_burn_down", tasks);
        settings.put("burn_down_time_box_s", timeBox.toSeconds());
        settings.put("shipped_settings_time_box_s", shippedBox.toSeconds());
        settings.put("latency_samples", latencySamples);
        settings.put("claim_scale_finished_rows", List.of(scaleSmall, scaleLarge));
        settings.put("claim_scale_pending_tasks", scalePending);
        settings.put("renewal_in_flight", renewalInFlight);
        settings.put("renewal_window_s", renewalWindow.toSeconds());
        settings.put("driver", "in-process no-op driver, create answer already terminal (completed)");
        settings.put("mcp_tasks_runtime", "WorkerRuntime as in Workers/CrashableWorker; RuntimeSettings.defaults()"
                + " (lease 120 s, 8 slots, tick 1 s); the fast runs change only the tick (1 ms)");
        settings.put("db_scheduler", "db-scheduler " + DbSchedulerBurnDown.VERSION + ", 8 threads, pool of 12,"
                + " one-time no-op task");
        return settings;
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
