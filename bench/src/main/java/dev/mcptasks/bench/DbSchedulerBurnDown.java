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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The yardstick: db-scheduler 16.7.1 on the same engine in the same run, N one-time no-op executions already due,
 * one or two Schedulers with 8 threads each. Executions per second from the schedulers' start until the table is
 * empty (a one-time execution's row is deleted when it completes), or the {@link Budget} stops the run.
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

    /** One scheduler with {@code polling} burns down {@code executions}. */
    Figure run(String name, Polling polling, int executions, Budget budget) throws Exception {
        return run(name, polling, 1, executions, budget);
    }

    /**
     * {@code schedulers} Schedulers in this process (each with its own pool, as separate processes would have) burn
     * down {@code executions}; executions per second.
     */
    Figure run(String name, Polling polling, int schedulers, int executions, Budget budget) throws Exception {
        Outcome outcome = burn(name, polling, schedulers, executions, budget, false);
        Map<String, Object> details = outcome.details(executions, schedulers, polling);
        details.putAll(McpTasksBurnDown.perTask(db, name, outcome.countersBefore(), outcome.polls(),
                outcome.finished()));
        return new Figure(db.key(), "burn-down", subject(polling, schedulers),
                McpTasksBurnDown.round(outcome.finished() / McpTasksBurnDown.seconds(outcome.elapsed())),
                "executions/s", details);
    }

    /** One scheduler burns down {@code executions} under a {@link WorkMeter}: transactions per execution. */
    Figure workPerTask(String name, Polling polling, int executions, Budget budget) throws Exception {
        Outcome outcome = burn(name, polling, 1, executions, budget, true);
        return McpTasksBurnDown.workFigure(db, subject(polling, 1), outcome.finished(), outcome.elapsed(),
                outcome.counts(), outcome.details(executions, 1, polling));
    }

    static String subject(Polling polling, int schedulers) {
        return "db-scheduler " + VERSION + ", " + (schedulers == 1 ? "" : schedulers + " schedulers x ") + THREADS
                + " threads, " + polling.label();
    }

    private record Outcome(long finished, long elapsed, long polls, long handlerCalls,
            Map<String, Long> countersBefore, WorkCounts counts) {
        Map<String, Object> details(int executions, int schedulers, Polling polling) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("executions", executions);
            details.put("finished", finished);
            details.put("handler_calls", handlerCalls);
            details.put("seconds", McpTasksBurnDown.round(McpTasksBurnDown.seconds(elapsed)));
            details.put("time_boxed", finished < executions);
            details.put("schedulers", schedulers);
            details.put("threads", THREADS);
            details.put("pool", POOL);
            details.put("polling", polling.label());
            return details;
        }
    }

    private Outcome burn(String name, Polling polling, int schedulers, int executions, Budget budget,
            boolean metered) throws Exception {
        AtomicLong done = new AtomicLong();
        OneTimeTask<Void> task = Tasks.oneTime("bench-noop").execute((instance, context) -> done.incrementAndGet());
        long remaining;
        long polls = 0;
        long elapsed;
        Map<String, Long> countersBefore;
        WorkCounts counts = null;
        List<HikariDataSource> pools = new ArrayList<>();
        try (HikariDataSource monitor = db.monitor(name)) {
            try (HikariDataSource setUp = db.pool(name, 1)) {
                prepare(setUp, executions);
            }
            WorkMeter meter = metered ? db.meter(name) : null;
            try {
                countersBefore = db.counters(name);
                List<Scheduler> running = new ArrayList<>();
                for (int s = 1; s <= schedulers; s++) {
                    HikariDataSource pool = db.pool(name, POOL);
                    pools.add(pool);
                    SchedulerBuilder builder = Scheduler.create(pool, task);
                    if (db.key().startsWith("sqlite")) {
                        builder.jdbcCustomization(new SqliteJdbcCustomization());
                    }
                    running.add(polling.configure().apply(builder)
                            .threads(THREADS)
                            .schedulerName(new SchedulerName.Fixed("bench-" + s))
                            .shutdownMaxWait(Duration.ofSeconds(5))
                            .build());
                }
                long start = System.nanoTime();
                running.forEach(Scheduler::start);
                try {
                    long progressedAt = start;
                    long before = executions;
                    do {
                        Thread.sleep(100);
                        remaining = Store.count(monitor, "select count(*) from scheduled_tasks");
                        polls++;
                        long now = System.nanoTime();
                        elapsed = now - start;
                        if (remaining < before) {
                            progressedAt = now;
                            before = remaining;
                        }
                    } while (budget.goOn(executions - remaining, executions, elapsed, System.nanoTime() - progressedAt));
                } finally {
                    running.forEach(Scheduler::stop);
                    pools.forEach(HikariDataSource::close);
                }
                if (meter != null) {
                    remaining = Store.count(monitor, "select count(*) from scheduled_tasks");
                    polls++;
                    counts = meter.read(polls);
                }
            } finally {
                if (meter != null) {
                    meter.close();
                }
            }
        }
        return new Outcome(executions - remaining, elapsed, polls, done.get(), countersBefore, counts);
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
