package dev.mcptasks.bench;

import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Submit to claim on an idle worker with the shipped settings: tasks submitted one at a time through TaskService
 * (the same store as the worker, as in one {@code serve} process), each waited for before the next after a random
 * pause of 20-1020 ms (so submits fall uniformly across the 1 s tick instead of locking to it); the latency runs from just before {@code submit} to the driver's submit call.
 */
final class SubmitLatency {
    private final BenchDatabase db;
    private final Clock clock;

    SubmitLatency(BenchDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    Figure run(String name, int samples) throws Exception {
        ConcurrentHashMap<TaskId, Long> seen = new ConcurrentHashMap<>();
        double[] millis = new double[samples];
        int missed = 0;
        RuntimeSettings settings = McpTasksWorker.shipped();
        try (CloseableTaskRepository store = db.openStore(name, clock, new RandomIdGenerator(clock));
                McpTasksWorker worker = new McpTasksWorker("latency", settings, store, clock, seen::put)) {
            TaskService service = new TaskService(store, McpTasksWorker.SERVERS, new RandomIdGenerator(clock));
            worker.start();
            for (int i = 0; i < samples; i++) {
                Thread.sleep(ThreadLocalRandom.current().nextLong(20, 1021));
                long before = System.nanoTime();
                TaskId id = service.submit(McpTasksWorker.SERVER, "noop", "{}").id();
                long waitUntil = before + 5_000_000_000L;
                Long claimed;
                while ((claimed = seen.get(id)) == null && System.nanoTime() < waitUntil) {
                    Thread.sleep(1);
                }
                if (claimed == null) {
                    missed++;
                    millis[i] = 5_000;
                } else {
                    millis[i] = (claimed - before) / 1e6;
                }
            }
        }
        Arrays.sort(millis);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("samples", samples);
        details.put("not_claimed_within_5s", missed);
        details.put("p50_ms", McpTasksBurnDown.round(percentile(millis, 50)));
        details.put("p95_ms", McpTasksBurnDown.round(percentile(millis, 95)));
        details.put("p99_ms", McpTasksBurnDown.round(percentile(millis, 99)));
        details.put("max_ms", McpTasksBurnDown.round(millis[millis.length - 1]));
        details.put("tick_ms", settings.tickInterval().toMillis());
        return new Figure(db.key(), "submit->claim latency", "mcp-tasks, 1 idle worker, shipped settings",
                McpTasksBurnDown.round(percentile(millis, 50)), "ms (p50)", details);
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
