package dev.mcptasks.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 9's goals judged against the figures of one run, per database. A goal the run did not measure as the issue
 * states it (a quick run's smaller sizes, a database left out) is NOT MEASURED, never PASS.
 */
final class Goals {
    static final double THROUGHPUT_RATIO = 1.5;
    static final double LATENCY_P50_MS = 50;
    static final double LATENCY_P99_MS = 250;
    static final int RENEWAL_IN_FLIGHT = 10_000;
    static final double RENEWAL_CPU_PERCENT = 10;
    static final int SCALE_ROWS = 1_000_000;
    static final double SCALE_RATIO = 0.8;
    static final double GATEWAY_IN_PROCESS_MS = 5;
    static final double GATEWAY_SEPARATE_MS = 25;
    static final double GATEWAY_RATE_RATIO = 0.5;

    /** One goal on one database: the verdict is PASS, FAIL or NOT MEASURED; {@code basis} names the figures. */
    record Verdict(String database, String goal, String measured, String target, String verdict, String basis) {}

    private Goals() {}

    static List<Verdict> judge(List<Figure> figures, List<String> databases) {
        List<Verdict> verdicts = new ArrayList<>();
        for (String db : databases) {
            verdicts.add(throughput(figures, db));
            if (db.equals(BenchOptions.NORMAL_VARIANT)) {
                // the comparison's second SQLite setting: only the burn-downs and the gateway's call run on it
                verdicts.addAll(gateway(figures, db));
                continue;
            }
            verdicts.addAll(latency(figures, db));
            verdicts.add(renewals(figures, db));
            verdicts.add(scale(figures, db));
            verdicts.addAll(gateway(figures, db));
        }
        return verdicts;
    }

    private static Verdict throughput(List<Figure> figures, String db) {
        String goal = "throughput vs db-scheduler's best";
        String target = ">= " + THROUGHPUT_RATIO + "x";
        Optional<Figure> best = figures.stream()
                .filter(f -> f.database().equals(db) && f.measurement().equals("ratio mcp-tasks/db-scheduler")
                        && "shipped".equals(f.details().get("settings")))
                .max(Comparator.comparingDouble(Figure::value));
        if (best.isEmpty()) {
            return new Verdict(db, goal, "-", target, "NOT MEASURED", "no burn-down of both with shipped settings");
        }
        Figure ratio = best.get();
        return new Verdict(db, goal, format(ratio.value()) + "x", target, verdict(ratio.value() >= THROUGHPUT_RATIO),
                ratio.subject() + ": " + ratio.details().get("mcp_tasks") + " tasks/s vs "
                        + ratio.details().get("db_scheduler_settings") + ": " + ratio.details().get("db_scheduler_best")
                        + " executions/s");
    }

    private static List<Verdict> latency(List<Figure> figures, String db) {
        Optional<Figure> latency = find(figures, db, "submit->claim latency");
        if (latency.isEmpty()) {
            return List.of(new Verdict(db, "submit->claim p50", "-", "< " + format(LATENCY_P50_MS) + " ms",
                            "NOT MEASURED", "no latency probe"),
                    new Verdict(db, "submit->claim p99", "-", "< " + format(LATENCY_P99_MS) + " ms", "NOT MEASURED",
                            "no latency probe"));
        }
        Map<String, Object> d = latency.get().details();
        String basis = d.get("samples") + " samples, idle worker, shipped settings; " + d.get("not_claimed_within_5s")
                + " not claimed within 5 s";
        double p50 = number(d.get("p50_ms"));
        double p99 = number(d.get("p99_ms"));
        return List.of(
                new Verdict(db, "submit->claim p50", format(p50) + " ms", "< " + format(LATENCY_P50_MS) + " ms",
                        verdict(p50 < LATENCY_P50_MS), basis),
                new Verdict(db, "submit->claim p99", format(p99) + " ms", "< " + format(LATENCY_P99_MS) + " ms",
                        verdict(p99 < LATENCY_P99_MS), basis));
    }

    private static Verdict renewals(List<Figure> figures, String db) {
        String goal = "renewal CPU, " + RENEWAL_IN_FLIGHT + " calls in flight";
        String target = "< " + format(RENEWAL_CPU_PERCENT) + " % of a core";
        Optional<Figure> figure = figures.stream()
                .filter(f -> f.database().equals(db) && f.measurement().equals("renewal CPU")
                        && Integer.valueOf(RENEWAL_IN_FLIGHT).equals(f.details().get("requested_in_flight")))
                .findFirst();
        if (figure.isEmpty()) {
            return new Verdict(db, goal, "-", target, "NOT MEASURED", "no run with " + RENEWAL_IN_FLIGHT
                    + " calls in flight (--quick measures 1,000)");
        }
        Map<String, Object> d = figure.get().details();
        double cpu = figure.get().value();
        long inFlight = (long) number(d.get("in_flight"));
        long renewals = (long) number(d.get("renewals_in_window"));
        long losses = (long) number(d.get("ownership_losses_in_window"));
        // a cheap window in which the renewals did not happen proves nothing: every call in flight, some renewals,
        // no claim lost
        boolean valid = inFlight == RENEWAL_IN_FLIGHT && renewals > 0 && losses == 0;
        String basis = inFlight + " in flight, " + renewals + " renewals (" + d.get("expected_renewals")
                + " due) and " + losses + " ownership losses in " + d.get("window_s") + " s";
        return new Verdict(db, goal, format(cpu) + " %", target, verdict(valid && cpu < RENEWAL_CPU_PERCENT),
                valid ? basis : basis + ": the renewals did not all happen");
    }

    private static Verdict scale(List<Figure> figures, String db) {
        String goal = "claim rate, 1 M vs 10 k finished rows";
        String target = ">= " + SCALE_RATIO + "x";
        Optional<Figure> ratio = figures.stream()
                .filter(f -> f.database().equals(db) && f.measurement().equals("claim scale") && f.unit().equals("x"))
                .findFirst();
        if (ratio.isEmpty()) {
            return new Verdict(db, goal, "-", target, "NOT MEASURED", "no claim-scale run");
        }
        Map<String, Object> d = ratio.get().details();
        String basis = d.get("small_rate") + " tasks/s with " + d.get("small_finished_rows") + " rows, "
                + d.get("large_rate") + " with " + d.get("large_finished_rows");
        if (number(d.get("large_finished_rows")) < SCALE_ROWS) {
            return new Verdict(db, goal, format(ratio.get().value()) + "x", target, "NOT MEASURED",
                    basis + " (the goal needs " + SCALE_ROWS + ")");
        }
        return new Verdict(db, goal, format(ratio.get().value()) + "x", target,
                verdict(ratio.get().value() >= SCALE_RATIO), basis);
    }

    /**
     * Per upstream the gateway was measured against: its added p50 per worker placement, and the concurrent rate with
     * the in-process worker (next to the plain relay's, the ceiling of any gateway on the machine).
     */
    private static List<Verdict> gateway(List<Figure> figures, String db) {
        List<Figure> calls = figures.stream().filter(f -> f.database().equals(db)
                && f.measurement().equals("plain call overhead")).toList();
        List<Object> measured = calls.stream().map(f -> f.details().get("upstream")).distinct().toList();
        // no gateway run: one pass over no figures, each placement NOT MEASURED
        List<Object> upstreams = measured.isEmpty() ? List.of("") : measured;
        List<Verdict> verdicts = new ArrayList<>();
        for (Object upstream : upstreams) {
            String against = upstreams.size() == 1 ? "" : ", " + upstream;
            Map<String, Figure> sides = new LinkedHashMap<>();
            calls.stream().filter(f -> f.details().get("upstream").equals(upstream))
                    .forEach(f -> sides.put((String) f.details().get("side"), f));
            for (String placement : List.of("in-process worker", "separate worker")) {
                double bound = placement.startsWith("in") ? GATEWAY_IN_PROCESS_MS : GATEWAY_SEPARATE_MS;
                String goal = "gateway p50 added, " + placement + against;
                Figure figure = sides.get("gateway, " + placement);
                if (figure == null) {
                    verdicts.add(new Verdict(db, goal, "-", "<= " + format(bound) + " ms", "NOT MEASURED",
                            "no gateway run"));
                    continue;
                }
                Map<String, Object> d = figure.details();
                verdicts.add(new Verdict(db, goal, format(figure.value()) + " ms", "<= " + format(bound) + " ms",
                        verdict(figure.value() <= bound), "p50 " + d.get("p50_ms") + " ms vs direct "
                                + d.get("direct_p50_ms") + " ms, " + d.get("samples") + " sequential calls"));
                if (placement.startsWith("in")) {
                    double ratio = number(d.get("rate_ratio"));
                    Figure relay = sides.get("plain HTTP relay, no store");
                    verdicts.add(new Verdict(db, "gateway calls/s, 16 callers, " + placement + against,
                            format(ratio) + "x", ">= " + format(GATEWAY_RATE_RATIO) + "x",
                            verdict(ratio >= GATEWAY_RATE_RATIO), d.get("calls_per_second_16_callers") + " vs direct "
                                    + d.get("direct_calls_per_second") + " calls/s" + (relay == null ? ""
                                    : "; a relay storing nothing: " + format(number(relay.details()
                                            .get("rate_ratio"))) + "x")));
                }
            }
        }
        return verdicts;
    }

    private static Optional<Figure> find(List<Figure> figures, String db, String measurement) {
        return figures.stream().filter(f -> f.database().equals(db) && f.measurement().equals(measurement))
                .findFirst();
    }

    static String render(List<Verdict> verdicts) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"database", "goal", "measured", "target", "verdict", "basis"});
        for (Verdict v : verdicts) {
            rows.add(new String[] {v.database(), v.goal(), v.measured(), v.target(), v.verdict(), v.basis()});
        }
        return Table.grid(rows);
    }

    private static String verdict(boolean pass) {
        return pass ? "PASS" : "FAIL";
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, value == Math.rint(value) ? "%.0f" : "%.2f", value);
    }
}
