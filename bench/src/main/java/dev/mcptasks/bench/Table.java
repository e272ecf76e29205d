package dev.mcptasks.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The printed table: one row per figure, with the details a reader needs to trust it. */
final class Table {
    private Table() {}

    static String render(List<Figure> figures) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"database", "measurement", "subject", "value", "notes"});
        for (Figure figure : figures) {
            rows.add(new String[] {figure.database(), figure.measurement(), figure.subject(),
                    String.format(Locale.ROOT, "%,.2f %s", figure.value(), figure.unit()), notes(figure)});
        }
        return grid(rows);
    }

    /** A markdown table of {@code rows}, the first being the header. */
    static String grid(List<String[]> rows) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            out.append("| ");
            for (int i = 0; i < row.length; i++) {
                out.append(String.format("%-" + widths[i] + "s", row[i])).append(" | ");
            }
            out.setLength(out.length() - 1);
            out.append('\n');
            if (r == 0) {
                out.append('|');
                for (int width : widths) {
                    out.append("-".repeat(width + 2)).append('|');
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String notes(Figure figure) {
        var d = figure.details();
        List<String> notes = new ArrayList<>();
        if (d.containsKey("finished") && d.containsKey("seconds")) {
            notes.add(d.get("finished") + " in " + d.get("seconds") + " s");
        }
        if (Boolean.TRUE.equals(d.get("time_boxed"))) {
            notes.add("time-boxed");
        }
        if (figure.measurement().equals("work per task")) {
            notes.add(d.get("statements_per_task") + " statements (" + d.get("selects_per_task") + " selects, "
                    + d.get("updates_per_task") + " updates, " + d.get("inserts_per_task") + " inserts, "
                    + d.get("deletes_per_task") + " deletes, " + d.get("other_statements_per_task") + " other) + "
                    + d.get("transaction_control_per_task") + " BEGIN/COMMIT, "
                    + Math.round(number(d.get("wal_bytes_per_task"))) + " WAL bytes"
                    + (d.containsKey("rows_updated_per_task") ? ", " + d.get("rows_updated_per_task") + " row updates"
                    : "") + " per task");
        }
        if (d.containsKey("commits_per_task")) {
            notes.add(d.get("commits_per_task") + " commits, " + d.get("rows_updated_per_task") + " row updates, "
                    + d.get("rows_inserted_per_task") + " inserts, " + d.get("rows_deleted_per_task") + " deletes, "
                    + Math.round(((Number) d.get("wal_bytes_per_task")).doubleValue()) + " WAL bytes per task");
        }
        if (d.containsKey("p95_ms")) {
            notes.add("p95 " + d.get("p95_ms") + " ms, p99 " + d.get("p99_ms") + " ms, max " + d.get("max_ms")
                    + " ms, n=" + d.get("samples"));
        }
        if (d.containsKey("renewals_in_window")) {
            notes.add(d.get("renewals_in_window") + " renewals in " + d.get("window_s") + " s, "
                    + d.get("cpu_ms_per_renewal") + " ms CPU each, " + d.get("ownership_losses_in_window")
                    + " losses, peak " + d.get("peak_threads") + " threads (alive after the window: "
                    + d.get("threads_by_name") + ")");
        }
        if (d.containsKey("bulk_insert_seconds")) {
            notes.add(d.get("finished_rows") + " finished rows (bulk insert " + d.get("bulk_insert_seconds") + " s)");
        }
        if (d.containsKey("db_scheduler_best")) {
            notes.add(d.get("mcp_tasks") + " vs " + d.get("db_scheduler_best"));
        }
        Object statuses = d.get("statuses_after");
        if (statuses != null && !statuses.toString().isEmpty()) {
            notes.add("after: " + statuses);
        }
        return String.join("; ", notes);
    }
}
