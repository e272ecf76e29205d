package dev.mcptasks.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code chaos/run.sh [--short|--long] [--db sqlite|postgres|both] [--generation 2025-11-25|2026-07-28|dual]
 * [--seed N] [--app-jar JAR] [--dir DIR]}: runs the chaos suite on each database, prints a summary per run, and exits
 * 0 when no invariant was broken, 1 when one was, 2 when the harness itself could not run.
 *
 * <p>{@code --generation} is what the reference server serves ({@code reference-server --generation}); the workers
 * keep {@code protocol} auto, so they speak 2026-07-28 to a {@code 2026-07-28} or {@code dual} server.
 */
public final class ChaosMain {
    static final String USAGE = "usage: chaos/run.sh [--short|--long] [--db sqlite|postgres|both]"
            + " [--generation 2025-11-25|2026-07-28|dual] [--seed N] [--app-jar JAR] [--dir DIR]";
    static final List<String> GENERATIONS = List.of("2025-11-25", "2026-07-28", "dual");

    private ChaosMain() {}

    /** The parsed command line. */
    record Options(ChaosProfile profile, List<String> databases, long seed, Path appJar, Path dir, String runTag,
            String generation) {}

    public static void main(String[] args) {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("chaos: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        System.exit(run(options));
    }

    static int run(Options options) {
        if (!Files.isRegularFile(options.appJar())) {
            System.err.println("chaos: " + options.appJar() + " is missing; build it with ./mvnw -q -DskipTests package");
            return 2;
        }
        List<RunReport> reports = new ArrayList<>();
        boolean harnessFailed = false;
        for (String database : options.databases()) {
            System.out.printf("chaos: %s run on %s, generation %s, seed %d, work dir %s%n", options.profile().name(),
                    database, options.generation(), options.seed(), options.dir().resolve(database));
            try (ChaosStore store = open(database, options.dir().resolve(database))) {
                RunReport report = new ChaosRun(options.profile(), options.seed(), options.appJar(),
                        options.dir().resolve(database), options.runTag() + "-" + database, List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-Xss512k", "-Xmx256m"), options.generation()).run(store);
                reports.add(report);
                report.print(System.out);
            } catch (Exception e) {
                harnessFailed = true;
                System.out.println("chaos: the " + database + " run could not complete: " + e);
                e.printStackTrace();
            }
            System.out.flush();
        }
        long violations = reports.stream().mapToLong(report -> report.violations().size()).sum();
        System.out.printf("chaos: %d run(s), %d violation(s)%s; logs, configs, call log and store in %s%n",
                reports.size(), violations, harnessFailed ? ", harness FAILED" : "", options.dir());
        if (harnessFailed) {
            return 2;
        }
        return violations == 0 ? 0 : 1;
    }

    private static ChaosStore open(String database, Path dir) throws java.io.IOException {
        Files.createDirectories(dir);
        return switch (database) {
            case "sqlite" -> new SqliteStore(dir.resolve("chaos.db").toAbsolutePath());
            case "postgres" -> PostgresStore.start();
            default -> throw new IllegalArgumentException("unknown database " + database);
        };
    }

    static Options parse(String[] args) {
        ChaosProfile profile = ChaosProfile.shortRun();
        List<String> databases = List.of("sqlite", "postgres");
        long seed = System.currentTimeMillis() % 100_000;
        Path appJar = Path.of("app/target/mcp-tasks.jar");
        Path dir = null;
        String runTag = "chaos-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis();
        String generation = GENERATIONS.get(0);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--short" -> profile = ChaosProfile.shortRun();
                case "--long" -> profile = ChaosProfile.longRun();
                case "--db" -> databases = switch (value(args, ++i)) {
                    case "sqlite" -> List.of("sqlite");
                    case "postgres" -> List.of("postgres");
                    case "both" -> List.of("sqlite", "postgres");
                    default -> throw new IllegalArgumentException("--db takes sqlite, postgres or both");
                };
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(value(args, ++i));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed needs an integer");
                    }
                }
                case "--generation" -> {
                    generation = value(args, ++i);
                    if (!GENERATIONS.contains(generation)) {
                        throw new IllegalArgumentException("--generation takes 2025-11-25, 2026-07-28 or dual");
                    }
                }
                case "--app-jar" -> appJar = Path.of(value(args, ++i));
                case "--dir" -> dir = Path.of(value(args, ++i));
                case "--run-tag" -> runTag = value(args, ++i);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Path.of("chaos/target/runs/" + profile.name() + "-" + seed + "-" + System.currentTimeMillis());
        }
        return new Options(profile, databases, seed, appJar.toAbsolutePath(), dir.toAbsolutePath(), runTag,
                generation);
    }

    private static String value(String[] args, int index) {
        if (index >= args.length) {
            throw new IllegalArgumentException(args[index - 1] + " needs a value");
        }
        return args[index];
    }
}
