package dev.mcptasks.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one family of checks found: its violations and the figures it counted on the way (takeovers, overlaps). */
public record CheckResult(List<Violation> violations, Map<String, Integer> figures) {
    public CheckResult {
        violations = List.copyOf(violations);
        figures = Map.copyOf(figures);
    }

    /** Collects violations and counts while a check runs. */
    static final class Builder {
        private final List<Violation> violations = new ArrayList<>();
        private final Map<String, Integer> figures = new TreeMap<>();

        void violation(String kind, String subject, String detail) {
            violations.add(new Violation(kind, subject, detail));
        }

        void count(String figure) {
            figures.merge(figure, 1, Integer::sum);
        }

        void zero(String figure) {
            figures.putIfAbsent(figure, 0);
        }

        CheckResult build() {
            return new CheckResult(violations, figures);
        }
    }
}
