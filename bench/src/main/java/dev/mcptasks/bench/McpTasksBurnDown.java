package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Burn-down: N pending tasks already in the store, then K workers of the real runtime finish them with the no-op
 * driver. The figure is finished tasks per second from the workers' start until the last task is terminal (or the
 * {@link Budget} stops the run). A metered run does the same under a {@link WorkMeter} and reports the work per
 * finished task instead of a rate (the meter's instruments slow it).
 */
final class McpTasksBurnDown {
    private static final String NOT_TERMINAL = "status not in ('completed', 'failed', 'cancelled')";
    private static final String FIRST_UNFINISHED = "select min(id) from tasks where " + NOT_TERMINAL;
    /**
     * The monitor's poll, every 100 ms: bounded below by the first unfinished id (read once, before the clock
     * starts), so it reads the burn-down's own rows on the primary key, not every finished row of the table. Without
     * the bound it scanned the whole table ten times a second, and with a million finished rows that scan took the
     * CPU the workers were measured on. Every unfinished row has an id at or above the bound, so the count is exact.
     */
    private static final String UNFINISHED_FROM = "select count(*) from tasks where id >= ? and " + NOT_TERMINAL;

    private final BenchDatabase db;
    private final Clock clock;

    McpTasksBurnDown(BenchDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** Adds {@code tasks} pending tasks to database {@code template} through TaskService; returns submits/s. */
    double prepareTemplate(String template, int tasks) throws Exception {
        long start = System.nanoTime();
        try (CloseableTaskRepository store = db.openStore(template, clock, new RandomIdGenerator(clock))) {
            TaskService service = new TaskService(store, McpTasksWorker.SERVERS, new RandomIdGenerator(clock));
            int threads = 4;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    while (next.getAndIncrement() < tasks) {
                        service.submit(McpTasksWorker.SERVER, "noop", "{}");
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
            pool.shutdown();
        }
        return tasks / seconds(System.nanoTime() - start);
    }

    Figure run(String template, String name, String subject, int workers, RuntimeSettings settings, int tasks,
            Budget budget) throws Exception {
        db.copy(template, name);
        return runOn(name, subject, workers, settings, tasks, budget);
    }

    /** The burn-down on database {@code name} as it is ({@code tasks} of its rows are pending). */
    Figure runOn(String name, String subject, int workers, RuntimeSettings settings, int tasks, Budget budget)
            throws Exception {
        Map<String, Long> countersBefore = db.counters(name);
        Outcome outcome = burn(name, workers, settings, tasks, budget, null);
        Map<String, Object> details = outcome.details(tasks, workers, settings);
        details.putAll(perTask(db, name, countersBefore, outcome.polls(), outcome.finished()));
        return new Figure(db.key(), "burn-down", subject, round(outcome.finished() / seconds(outcome.elapsed())),
                "tasks/s", details);
    }

    /**
     * The burn-down of {@code tasks} pending tasks of {@code template} under a {@link WorkMeter}: transactions per
     * finished task is the figure; statements, rows and WAL per task are details.
     */
    Figure workPerTask(String template, String name, String subject, RuntimeSettings settings, int tasks,
            Budget budget) throws Exception {
        db.copy(template, name);
        Outcome outcome;
        WorkCounts counts;
        try (WorkMeter meter = db.meter(name)) {
            outcome = burn(name, 1, settings, tasks, budget, meter);
            counts = outcome.counts();
        }
        return workFigure(db, subject, outcome.finished(), outcome.elapsed(), counts,
                outcome.details(tasks, 1, settings));
    }

    static Figure workFigure(BenchDatabase db, String subject, long finished, long elapsed, WorkCounts counts,
            Map<String, Object> runDetails) {
        Map<String, Object> details = new LinkedHashMap<>(runDetails);
        details.put("seconds", round(seconds(elapsed)));
        if (finished > 0) {
            details.putAll(counts.perTask(finished));
        }
        Object transactions = details.get("transactions_per_task");
        return new Figure(db.key(), "work per task", subject, transactions instanceof Double d ? d : 0,
                "transactions/task", details);
    }

    private record Outcome(long finished, long elapsed, long polls, Map<String, Long> statuses, WorkCounts counts) {
        Map<String, Object> details(int tasks, int workers, RuntimeSettings settings) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("tasks", tasks);
            details.put("finished", finished);
            details.put("seconds", round(seconds(elapsed)));
            details.put("time_boxed", finished < tasks);
            details.put("statuses_after", statuses);
            details.put("workers", workers);
            details.put("slots_per_worker", settings.maxConcurrentControlCalls());
            details.put("tick_ms", settings.tickInterval().toMillis());
            details.put("settings", settings.equals(McpTasksWorker.shipped()) ? "shipped"
                    : McpTasksWorker.describe(settings));
            return details;
        }
    }

    private Outcome burn(String name, int workers, RuntimeSettings settings, int tasks, Budget budget,
            WorkMeter meter) throws Exception {
        List<CloseableTaskRepository> stores = new ArrayList<>();
        List<McpTasksWorker> running = new ArrayList<>();
        long polls = 0;
        long finished;
        long elapsed;
        WorkCounts counts = null;
        Map<String, Long> statuses;
        try (HikariDataSource monitor = db.monitor(name)) {
            String firstUnfinished = Store.text(monitor, FIRST_UNFINISHED);
            long start = System.nanoTime();
            try {
                for (int w = 1; w <= workers; w++) {
                    // one store (one pool) per worker, as separate serve processes would have
                    CloseableTaskRepository store = db.openStore(name, clock, new RandomIdGenerator(clock));
                    stores.add(store);
                    McpTasksWorker worker = new McpTasksWorker("w" + w, settings, store, clock, (id, nanos) -> {});
                    running.add(worker);
                    worker.start();
                }
                long progressedAt = start;
                long before = 0;
                do {
                    Thread.sleep(100);
                    finished = tasks - Store.count(monitor, UNFINISHED_FROM, firstUnfinished);
                    polls++;
                    long now = System.nanoTime();
                    elapsed = now - start;
                    if (finished > before) {
                        progressedAt = now;
                        before = finished;
                    }
                } while (budget.goOn(finished, tasks, elapsed, System.nanoTime() - progressedAt));
            } finally {
                running.forEach(McpTasksWorker::close);
                stores.forEach(CloseableTaskRepository::close);
            }
            if (meter != null) {
                // what the stopped workers finished after the last poll counts too: their work is in the meter
                finished = tasks - Store.count(monitor, UNFINISHED_FROM, firstUnfinished);
                polls++;
                counts = meter.read(polls);
            }
            statuses = Store.statusCounts(monitor);
            polls++;
        }
        return new Outcome(finished, elapsed, polls, statuses, counts);
    }

    /**
     * The engine's counters per finished task ({@code commits_per_task}, {@code rows_updated_per_task}, ...), where
     * it counts them cheaply during a burn-down; the monitor's own reads (one transaction each) are subtracted from
     * the commits.
     */
    static Map<String, Object> perTask(BenchDatabase db, String name, Map<String, Long> before, long polls,
            long finished) throws InterruptedException {
        Map<String, Object> perTask = new LinkedHashMap<>();
        if (before.isEmpty() || finished == 0) {
            return perTask;
        }
        Thread.sleep(700); // the statistics collector hears of commits at most every 500 ms
        Map<String, Long> after = db.counters(name);
        for (Map.Entry<String, Long> counter : before.entrySet()) {
            Long end = after.get(counter.getKey());
            if (end != null) {
                long delta = end - counter.getValue() - (counter.getKey().equals("commits") ? polls : 0);
                perTask.put(counter.getKey() + "_per_task", round(delta / (double) finished));
            }
        }
        return perTask;
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
