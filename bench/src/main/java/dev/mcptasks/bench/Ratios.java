package dev.mcptasks.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** mcp-tasks over db-scheduler per database: each mcp-tasks burn-down against db-scheduler's best run. */
final class Ratios {
    private Ratios() {}

    /** db-scheduler's fastest burn-down on {@code database}, if any ran. */
    static Optional<Figure> bestDbScheduler(List<Figure> figures, String database) {
        return figures.stream()
                .filter(f -> f.database().equals(database) && f.measurement().equals("burn-down")
                        && f.subject().startsWith("db-scheduler"))
                .max(Comparator.comparingDouble(Figure::value));
    }

    static List<Figure> of(List<Figure> figures) {
        List<Figure> ratios = new ArrayList<>();
        for (String db : figures.stream().map(Figure::database).distinct().toList()) {
            Optional<Figure> best = bestDbScheduler(figures, db);
            if (best.isEmpty() || best.get().value() == 0) {
                continue;
            }
            for (Figure mine : figures) {
                if (mine.database().equals(db) && mine.measurement().equals("burn-down")
                        && mine.subject().startsWith("mcp-tasks")) {
                    Map<String, Object> details = new LinkedHashMap<>();
                    details.put("mcp_tasks", mine.value());
                    details.put("db_scheduler_best", best.get().value());
                    details.put("db_scheduler_settings", best.get().subject());
                    details.put("settings", mine.details().get("settings"));
                    ratios.add(new Figure(db, "ratio mcp-tasks/db-scheduler", mine.subject(),
                            McpTasksBurnDown.round(mine.value() / best.get().value()), "x", details));
                }
            }
        }
        return ratios;
    }
}
