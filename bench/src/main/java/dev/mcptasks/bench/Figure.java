package dev.mcptasks.bench;

import java.util.Map;

/**
 * One measured figure.
 *
 * @param database "sqlite" or "postgres"
 * @param measurement what was measured (e.g. "burn-down")
 * @param subject who, with which settings (e.g. "mcp-tasks, 1 worker x 8 slots, tick 1 ms")
 * @param value the figure
 * @param unit its unit
 * @param details everything else measured alongside (counts, elapsed time, commits)
 */
record Figure(String database, String measurement, String subject, double value, String unit,
        Map<String, Object> details) {}
