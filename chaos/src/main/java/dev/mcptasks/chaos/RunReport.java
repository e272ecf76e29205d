package dev.mcptasks.chaos;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The figures and violations of one run on one database, and how they are printed. */
public record RunReport(String database, String profile, String generation, long seed, long wallMillis,
        int submitted, Map<String, Integer> cancels, Map<FaultEvent.Kind, Long> faults, int incarnations,
        List<CheckResult> checks, List<Violation> processViolations) {

    private static final int DETAILS_PER_KIND = 5;

    public List<Violation> violations() {
        List<Violation> all = new ArrayList<>(processViolations);
        checks.forEach(check -> all.addAll(check.violations()));
        return all;
    }

    public Map<String, Long> violationsByKind() {
        return violations().stream().collect(Collectors.groupingBy(Violation::kind, TreeMap::new,
                Collectors.counting()));
    }

    public Map<String, Integer> figures() {
        Map<String, Integer> figures = new TreeMap<>();
        checks.forEach(check -> check.figures().forEach((name, value) -> figures.merge(name, value, Integer::sum)));
        return figures;
    }

    public void print(PrintStream out) {
        Map<String, Integer> figures = figures();
        out.printf("chaos %s on %s, generation %s (seed %d): %d tasks, %d SIGKILL, %d SIGSTOP, %d SIGTERM,"
                + " %d serve processes, %d claims, %d takeovers of expired leases, %d overlapping calls explained by a"
                + " fault; wall %d s%n", profile, database, generation, seed, submitted,
                faults.getOrDefault(FaultEvent.Kind.KILL, 0L),
                faults.getOrDefault(FaultEvent.Kind.STOP, 0L), faults.getOrDefault(FaultEvent.Kind.TERM, 0L),
                incarnations, figures.getOrDefault("claims", 0), figures.getOrDefault("takeovers of expired leases", 0),
                figures.getOrDefault("overlaps explained by a fault", 0), wallMillis / 1000);
        out.printf("  overlaps explained: %d by a fault, %d abandoned by the client before the later call (a),"
                + " %d cancel phase over a status call begun before the cancel request (b)%n",
                figures.getOrDefault(OverlapChecks.BY_FAULT, 0), figures.getOrDefault(OverlapChecks.BY_ABANDON, 0),
                figures.getOrDefault(OverlapChecks.BY_CANCEL, 0));
        out.println("  user cancels: " + (cancels.isEmpty() ? "none" : cancels));
        out.printf("  request ids:  %d reused (session, id) pairs, %d of them in flight (the server runs --strict-ids)%n",
                figures.getOrDefault(RequestIdChecks.REUSED, 0), figures.getOrDefault(RequestIdChecks.REUSED_IN_FLIGHT, 0));
        out.println("  end states:   " + figures.entrySet().stream().filter(entry -> entry.getKey().startsWith("status "))
                .map(entry -> entry.getKey().substring(7) + " " + entry.getValue()).collect(Collectors.joining(", ")));
        out.println("  generations:  " + figures.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith("generation "))
                .map(entry -> entry.getKey().substring(11) + " " + entry.getValue()).collect(Collectors.joining(", ")));
        figures.entrySet().stream().filter(entry -> entry.getKey().startsWith("overlaps after ")
                || entry.getKey().equals("tasks created more than once")
                || entry.getKey().startsWith("cancel requested, task ended ")
                || entry.getKey().startsWith("completed at once without a task"))
                .forEach(entry -> out.println("  " + entry.getKey() + ": " + entry.getValue()));
        Map<String, Long> byKind = violationsByKind();
        if (byKind.isEmpty()) {
            out.println("  violations:   none");
            return;
        }
        out.println("  VIOLATIONS:   " + violations().size() + " " + byKind);
        Map<String, Integer> shown = new TreeMap<>();
        for (Violation violation : violations()) {
            if (shown.merge(violation.kind(), 1, Integer::sum) <= DETAILS_PER_KIND) {
                out.println("    " + violation);
            }
        }
    }
}
