package dev.mcptasks.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link WorkMeter} counted over one run.
 *
 * @param counters totals by name ({@code transactions}, {@code wal_bytes}, {@code rows_updated}, ...)
 * @param statements executions (or preparations, see {@code countedAs}) by statement text
 * @param countedAs what each counter and the statements count exactly, in words, by counter name
 */
record WorkCounts(Map<String, Long> counters, StatementTally statements, Map<String, String> countedAs) {
    /** Every counter and statement category divided by {@code finished}, plus the busiest statements per task. */
    Map<String, Object> perTask(long finished) {
        Map<String, Object> perTask = new LinkedHashMap<>();
        for (Map.Entry<String, Long> counter : counters.entrySet()) {
            perTask.put(counter.getKey() + "_per_task", McpTasksBurnDown.round(counter.getValue() / (double) finished));
        }
        if (statements != null) {
            statements.categories().forEach((category, count) -> perTask.put(category + "_per_task",
                    McpTasksBurnDown.round(count / (double) finished)));
            Map<String, Double> top = new LinkedHashMap<>();
            statements.top(8).forEach((sql, count) -> top.put(sql, McpTasksBurnDown.round(count / (double) finished)));
            perTask.put("top_statements_per_task", top);
        }
        perTask.put("counted_as", countedAs);
        return perTask;
    }
}
