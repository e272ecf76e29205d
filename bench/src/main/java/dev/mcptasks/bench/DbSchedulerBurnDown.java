package dev.mcptasks.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The yardstick: db-scheduler 16.7.1 on the same engine in the same run, N one-time no-op executions already due,
 * one Scheduler with 8 threads. Executions per second from the scheduler's start until the table is empty (a
 * one-time execution's row is deleted when it completes).
 */
final class DbSchedulerBurnDown {
    static final String VERSION = "16.7.1";

    /** A polling configuration, named for the table. */
    record Polling(String label, UnaryOperator<SchedulerBuilder> configure) {}

    /** db-scheduler's defaults: fetch-and-lock-on-execute, lower/upper limit 0.5/3.0 of the threads, 10 s interval. */
    static final Polling DEFAULT = new Polling("defaults (fetch, 10 s interval)", builder -> builder);

    /**
     * The fastest sensible settings on PostgreSQL: lock-and-fetch (one SELECT ... FOR UPDATE SKIP LOCKED claims a
     * batch), lower/upper limit 0.5/4.0 of the threads, 100 ms polling interval.
     */
    static final Polling LOCK_AND_FETCH = new Polling("lock-and-fetch 0.5/4.0, 100 ms interval",
            builder -> builder.pollUsingLockAndFetch(0.5, 4.0).pollingInterval(Duration.ofMillis(100)));

    /**
     * The fastest sensible settings where lock-and-fetch is not available (SQLite: no SELECT FOR UPDATE): fetch with
     * a larger batch (upper limit 4.0) and a 100 ms polling interval.
     */
    static final Polling FAST_FETCH = new Polling("fetch 0.5/4.0, 100 ms interval",
            builder -> builder.pollUsingFetchAndLockOnExecute(0.5, 4.0).pollingInterval(Duration.ofMillis(100)));

    private static final int THREADS = 8;
    private static final int POOL = 12;

    private final BenchDatabase db;

    DbSchedulerBurnDown(BenchDatabase db) {
        this.db = db;
    }

    Figure run(String name, Polling polling, int executions, Duration timeBox) throws Exception {
        AtomicLong done = new AtomicLong();
        OneTimeTask<Void> task = Tasks.oneTime("bench-noop").execute((instance, context) -> done.incrementAndGet());
        long remaining;
        long polls = 0;
        long elapsed;
        Map<String, Long> countersBefore;
        try (HikariDataSource pool = db.pool(name, POOL)) {
            prepare(pool, executions);
            countersBefore = db.counters(name);
            SchedulerBuilder builder = Scheduler.create(pool, task);
            if (db.key().equals("sqlite")) {
                builder.jdbcCustomization(new SqliteJdbcCustomization());
            }
            Scheduler scheduler = polling.configure().apply(builder)
                    .threads(THREADS)
                    .schedulerName(new SchedulerName.Fixed("bench"))
                    .shutdownMaxWait(Duration.ofSeconds(5))
                    .build();
            long start = System.nanoTime();
            scheduler.start();
            try {
                long deadline = start + timeBox.toNanos();
                do {
                    Thread.sleep(100);
                    remaining = Store.count(pool, "select count(*) from scheduled_tasks");
                    polls++;
                } while (remaining > 0 && System.nanoTime() < deadline);
                elapsed = System.nanoTime() - start;
            } finally {
                scheduler.stop();
            }
        }
        long finished = executions - remaining;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executions", executions);
        details.put("finished", finished);
        details.put("handler_calls", done.get());
        details.put("seconds", McpTasksBurnDown.round(McpTasksBurnDown.seconds(elapsed)));
        details.put("time_boxed", remaining > 0);
        details.put("threads", THREADS);
        details.put("pool", POOL);
        details.put("polling", polling.label());
        details.putAll(McpTasksBurnDown.perTask(db, name, countersBefore, polls, finished));
        return new Figure(db.key(), "burn-down", "db-scheduler " + VERSION + ", " + THREADS + " threads, "
                + polling.label(), McpTasksBurnDown.round(finished / McpTasksBurnDown.seconds(elapsed)),
                "executions/s", details);
    }

    /** The table, then the executions in batches, written the way db-scheduler writes them (instants in UTC). */
    private void prepare(HikariDataSource pool, int executions) throws SQLException {
        // the customization the scheduler itself uses on either engine writes instants this way
        DefaultJdbcCustomization instants = new DefaultJdbcCustomization(false);
        Instant due = Instant.now().minusSeconds(1);
        try (Connection connection = pool.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("drop table if exists scheduled_tasks");
                for (String ddl : db.dbSchedulerDdl().split(";")) {
                    statement.execute(ddl);
                }
            }
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("insert into scheduled_tasks (task_name,"
                    + " task_instance, task_data, execution_time, picked, version) values (?, ?, null, ?, ?, 1)")) {
                for (int i = 0; i < executions; i++) {
                    insert.setString(1, "bench-noop");
                    insert.setString(2, "e" + i);
                    instants.setInstant(insert, 3, due);
                    insert.setBoolean(4, false);
                    insert.addBatch();
                    if (i % 1000 == 999) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
            connection.setAutoCommit(true);
        }
    }
}
