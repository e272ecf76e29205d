package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.core.runtime.RuntimeSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claim rate against the number of finished rows: a database holding F finished tasks (real completed rows of an
 * earlier burn-down, multiplied in bulk with plain SQL: every column copied verbatim except the id and the remote
 * id, which are unique) plus P pending tasks submitted through TaskService, burnt down by one worker with the tick
 * forced to 1 ms. Run for a small and a large F; the figure is the large rate over the small one.
 */
final class ClaimScale {
    private static final int SEEDS = 1_000;
    private static final List<String> DUE_NOTIFICATIONS = List.of("pending", "claimed", "dispatched", "retry");

    private final BenchDatabase db;
    private final McpTasksBurnDown burnDown;

    ClaimScale(BenchDatabase db, McpTasksBurnDown burnDown) {
        this.db = db;
        this.burnDown = burnDown;
    }

    /** {@code finishedSource}: a database whose tasks are all finished (at least {@value #SEEDS} of them). */
    List<Figure> run(String finishedSource, int small, int large, int pending, RuntimeSettings settings,
            Budget budget) throws Exception {
        Figure smallRate = rateWith(finishedSource, small, pending, settings, budget);
        Figure largeRate = rateWith(finishedSource, large, pending, settings, budget);
        Map<String, Object> details = new LinkedHashMap<>();
        // the rows actually built (fewer seeds than asked for, when the source did not finish them all, give fewer)
        details.put("small_finished_rows", smallRate.details().get("finished_rows"));
        details.put("large_finished_rows", largeRate.details().get("finished_rows"));
        details.put("small_rate", smallRate.value());
        details.put("large_rate", largeRate.value());
        Figure ratio = new Figure(db.key(), "claim scale", "rate with " + details.get("large_finished_rows")
                + " / with " + details.get("small_finished_rows") + " finished rows", smallRate.value() == 0 ? 0
                : McpTasksBurnDown.round(largeRate.value() / smallRate.value()), "x", details);
        return List.of(smallRate, largeRate, ratio);
    }

    private Figure rateWith(String source, int finished, int pending, RuntimeSettings settings, Budget budget)
            throws Exception {
        String name = "scale_" + finished;
        db.copy(source, name);
        long built = System.nanoTime();
        long rows;
        try (HikariDataSource pool = db.pool(name, 1)) {
            rows = multiply(pool, finished);
        }
        double buildSeconds = McpTasksBurnDown.seconds(System.nanoTime() - built);
        burnDown.prepareTemplate(name, pending);
        Figure figure = burnDown.runOn(name, "mcp-tasks, 1 worker x " + settings.maxConcurrentControlCalls()
                + " slots, tick 1 ms, " + rows + " finished rows", 1, settings, pending, budget);
        Map<String, Object> details = new LinkedHashMap<>(figure.details());
        details.put("finished_rows", rows);
        details.put("bulk_insert_seconds", McpTasksBurnDown.round(buildSeconds));
        details.remove("statuses_after");
        return new Figure(figure.database(), "claim scale", figure.subject(), figure.value(), figure.unit(),
                details);
    }

    /** Keeps {@value #SEEDS} finished rows and copies them until there are {@code target}; returns the count. */
    long multiply(HikariDataSource pool, int target) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            String notDue = "notification_status not in ('" + String.join("', '", DUE_NOTIFICATIONS) + "')";
            statement.execute("delete from tasks where id not in (select id from tasks where status = 'completed'"
                    + " and " + notDue + " order by id limit " + SEEDS + ")");
            List<String> columns = new ArrayList<>();
            try (ResultSet empty = statement.executeQuery("select * from tasks where 1 = 0")) {
                ResultSetMetaData meta = empty.getMetaData();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    columns.add(meta.getColumnName(i).toLowerCase());
                }
            }
            List<String> values = new ArrayList<>();
            for (String column : columns) {
                values.add(switch (column) {
                    case "id" -> "s.id || '-' || g.k";
                    case "remote_task_id" -> "s.remote_task_id || '-' || g.k";
                    default -> "s." + column;
                });
            }
            long seeds;
            try (ResultSet count = statement.executeQuery("select count(*) from tasks")) {
                count.next();
                seeds = count.getLong(1);
            }
            if (seeds == 0) {
                throw new IllegalStateException("claim scale: the source database has no finished task to copy");
            }
            long copies = Math.max(0, (target + seeds - 1) / seeds - 1);
            String series = db.key().equals("postgres")
                    ? "with g(k) as (select generate_series(1, " + copies + ")) "
                    : "with recursive g(k) as (select 1 union all select k + 1 from g where k < " + copies + ") ";
            if (copies > 0) {
                connection.setAutoCommit(false);
                statement.execute(series + "insert into tasks (" + String.join(", ", columns) + ") select "
                        + String.join(", ", values) + " from tasks s, g");
                connection.commit();
                connection.setAutoCommit(true);
            }
            if (db.key().equals("postgres")) {
                // a long-lived table's steady state, not a fresh bulk load's: autovacuum would have vacuumed and
                // analyzed it (hint bits, visibility map, statistics), and the load's WAL is checkpointed
                statement.execute("vacuum (analyze) tasks");
                statement.execute("checkpoint");
            }
            try (ResultSet count = statement.executeQuery("select count(*) from tasks")) {
                count.next();
                return count.getLong(1);
            }
        }
    }
}
