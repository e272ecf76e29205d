package dev.mcptasks.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.app.assembly.RandomIdGenerator;
import dev.mcptasks.app.runtime.RuntimeSettings;
import dev.mcptasks.app.service.TaskService;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.time.Duration;
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
 * time box ends: with the shipped 1 s tick a full burn-down would take far too long, so those runs are boxed).
 */
final class McpTasksBurnDown {
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
            Duration timeBox) throws Exception {
        db.copy(template, name);
        return runOn(name, subject, workers, settings, tasks, timeBox);
    }

    /** The burn-down on database {@code name} as it is ({@code tasks} of its rows are pending). */
    Figure runOn(String name, String subject, int workers, RuntimeSettings settings, int tasks, Duration timeBox)
            throws Exception {
        Map<String, Long> countersBefore = db.counters(name);
        List<CloseableTaskRepository> stores = new ArrayList<>();
        List<McpTasksWorker> running = new ArrayList<>();
        long polls = 0;
        long finished;
        long elapsed;
        Map<String, Long> statuses;
        try (HikariDataSource monitor = db.pool(name, 1)) {
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
                long deadline = start + timeBox.toNanos();
                do {
                    Thread.sleep(100);
                    finished = tasks - Store.count(monitor, "select count(*) from tasks where status not in"
                            + " ('completed', 'failed', 'cancelled')");
                    polls++;
                } while (finished < tasks && System.nanoTime() < deadline);
                elapsed = System.nanoTime() - start;
            } finally {
                running.forEach(McpTasksWorker::close);
                stores.forEach(CloseableTaskRepository::close);
            }
            statuses = Store.statusCounts(monitor);
            polls++;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("tasks", tasks);
        details.put("finished", finished);
        details.put("seconds", round(seconds(elapsed)));
        details.put("time_boxed", finished < tasks);
        details.put("statuses_after", statuses);
        details.put("workers", workers);
        details.put("slots_per_worker", settings.maxConcurrentControlCalls());
        details.put("tick_ms", settings.tickInterval().toMillis());
        details.putAll(perTask(db, name, countersBefore, polls, finished));
        return new Figure(db.key(), "burn-down", subject, round(finished / seconds(elapsed)), "tasks/s", details);
    }

    /**
     * The engine's counters per finished task ({@code commits_per_task}, {@code rows_updated_per_task}, ...), where
     * it counts them; the monitor's own reads (one transaction each) are subtracted from the commits.
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
