package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.adapters.postgres.PostgresTaskRepositories;
import dev.mcptasks.adapters.sqlite.SqliteTaskRepositories;
import dev.mcptasks.core.retention.Pacer;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Claim rate and submit->claim latency while the workers' retention purges many finished rows: the same database
 * (F finished rows, built as the claim-scale phase builds them, plus P pending tasks) is burnt down once as it is and
 * once with a purge of every finished row running beside it, in the workers' batches (500 rows a transaction, 50 ms
 * apart); then submit->claim latency is sampled the same two ways. The figures are the rates and latencies side by
 * side and the ratio of the rate under purge to the rate without. The purge then runs on to its end (within
 * {@link #PURGE_BOUND}), so its duration and rows per second are those of the whole purge.
 */
final class PurgeLoad {
    private static final int BATCH = 500;
    private static final Duration PAUSE = Duration.ofMillis(50);
    /** How long the purge may run on after the measurements, to finish and give its own duration and rate. */
    private static final Duration PURGE_BOUND = Duration.ofMinutes(5);

    private final BenchDatabase db;
    private final McpTasksBurnDown burnDown;
    private final Clock clock;

    PurgeLoad(BenchDatabase db, McpTasksBurnDown burnDown, Clock clock) {
        this.db = db;
        this.burnDown = burnDown;
        this.clock = clock;
    }

    List<Figure> run(String finishedSource, int finished, int pending, RuntimeSettings settings, Budget budget,
            int latencySamples) throws Exception {
        db.copy(finishedSource, "purge_base");
        long rows;
        long seeding = System.nanoTime();
        try (HikariDataSource pool = db.pool("purge_base", 1)) {
            // one INSERT ... SELECT of copies of 1,000 real finished rows (see ClaimScale#multiply)
            rows = new ClaimScale(db, burnDown).multiply(pool, finished);
        }
        double seedSeconds = McpTasksBurnDown.seconds(System.nanoTime() - seeding);
        List<Figure> figures = new ArrayList<>();
        Figure quietRate = measure("purge_off", rows, pending, settings, budget, latencySamples, false, figures);
        Figure loadedRate = measure("purge_on", rows, pending, settings, budget, latencySamples, true, figures);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("finished_rows", rows);
        details.put("seed_seconds", McpTasksBurnDown.round(seedSeconds));
        details.put("rate_without_purge", quietRate.value());
        details.put("rate_with_purge", loadedRate.value());
        figures.add(new Figure(db.key(), "claim under purge", "rate with a purge of " + rows
                + " finished rows running / without", quietRate.value() == 0 ? 0
                        : McpTasksBurnDown.round(loadedRate.value() / quietRate.value()), "x", details));
        return figures;
    }

    private Figure measure(String name, long rows, int pending, RuntimeSettings settings, Budget budget,
            int latencySamples, boolean purging, List<Figure> figures) throws Exception {
        db.copy("purge_base", name);
        burnDown.prepareTemplate(name, pending);
        String label = purging ? "purge of " + rows + " finished rows running" : "no purge, " + rows
                + " finished rows";
        try (CloseableTaskRepository store = db.openStore(name, clock, new RandomIdGenerator(clock))) {
            RetentionStore retention = db.key().equals("postgres") ? PostgresTaskRepositories.retentionOf(store)
                    : SqliteTaskRepositories.retentionOf(store);
            AtomicLong purged = new AtomicLong();
            long purgeStart = System.nanoTime();
            AtomicLong purgeEnd = new AtomicLong();
            Thread purge = new Thread(() -> {
                try {
                    // every row finished before now: the pending tasks this run finishes are not in it
                    new Purger(counting(retention, purged), AuditLog.NONE, clock, BATCH, Pacer.sleeping(PAUSE))
                            .purge(Set.of(TaskStatus.COMPLETED), Duration.ZERO);
                } catch (InterruptedException e) {
                    // stopped at the end of the measurement
                } finally {
                    purgeEnd.set(System.nanoTime());
                }
            }, "bench-purge");
            if (purging) {
                purge.start();
            }
            Figure rate = burnDown.runOn(name, "mcp-tasks, 1 worker x " + settings.maxConcurrentControlCalls()
                    + " slots, tick 1 ms, " + label, 1, settings, pending, budget);
            boolean runningThroughBurnDown = purge.isAlive();
            Figure latency = new SubmitLatency(db, clock).run(name, latencySamples);
            boolean runningThroughLatency = purge.isAlive();
            // the purge's own duration and rate: it runs on to its end, unless that takes longer than the bound
            purge.join(PURGE_BOUND.toMillis());
            boolean finished = purging && !purge.isAlive();
            purge.interrupt();
            purge.join();
            Map<String, Object> details = new LinkedHashMap<>(rate.details());
            details.remove("statuses_after");
            if (purging) {
                details.put("rows_purged", purged.get());
                details.put("purge_seconds", McpTasksBurnDown.round(
                        McpTasksBurnDown.seconds(purgeEnd.get() - purgeStart)));
                details.put("purge_running_through_burn_down", runningThroughBurnDown);
                details.put("purge_running_through_latency", runningThroughLatency);
                details.put("purge_finished", finished);
            }
            Figure claim = new Figure(db.key(), "claim under purge", rate.subject(), rate.value(), rate.unit(),
                    details);
            figures.add(claim);
            figures.add(new Figure(db.key(), "claim under purge", "submit->claim latency, " + label,
                    latency.value(), latency.unit(), latency.details()));
            if (purging) {
                double seconds = McpTasksBurnDown.seconds(purgeEnd.get() - purgeStart);
                figures.add(new Figure(db.key(), "claim under purge", "purge, " + BATCH + " rows a batch, "
                        + PAUSE.toMillis() + " ms apart: " + purged.get() + " rows in "
                        + McpTasksBurnDown.round(seconds) + " s" + (finished ? "" : " (stopped at the bound)"),
                        seconds == 0 ? 0 : McpTasksBurnDown.round(purged.get() / seconds), "rows/s",
                        Map.of("rows_purged", purged.get(), "purge_seconds", McpTasksBurnDown.round(seconds),
                                "purge_finished", finished)));
            }
            return claim;
        }
    }

    /** Counts the rows each batch deletes, so a purge stopped part-way still tells how far it got. */
    private static RetentionStore counting(RetentionStore delegate, AtomicLong purged) {
        return new RetentionStore() {
            @Override
            public int purgeFinished(TaskStatus status, Instant finishedBefore, int limit) {
                int deleted = delegate.purgeFinished(status, finishedBefore, limit);
                purged.addAndGet(deleted);
                return deleted;
            }

            @Override
            public long countFinished(TaskStatus status, Instant finishedBefore) {
                return delegate.countFinished(status, finishedBefore);
            }

            @Override
            public int purgeExpired(Instant now, int limit) {
                return delegate.purgeExpired(now, limit);
            }

            @Override
            public long countExpired(Instant now) {
                return delegate.countExpired(now);
            }
        };
    }
}
