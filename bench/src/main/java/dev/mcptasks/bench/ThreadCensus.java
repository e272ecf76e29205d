package dev.mcptasks.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which threads a phase runs on: samples the live threads every 100 ms and keeps, per name with its numbers taken
 * out ({@code mcp-tasks-worker-17} counts as {@code mcp-tasks-worker-#}), the most seen at once. Explains a peak
 * thread count (timers, executor bursts, committers, JDBC) instead of only stating it.
 */
final class ThreadCensus implements AutoCloseable {
    private final Map<String, Integer> peaks = new ConcurrentHashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    ThreadCensus() {
        sampler = new Thread(this::sample, "bench-thread-census");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (running) {
            Map<String, Integer> now = new LinkedHashMap<>();
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                now.merge(thread.getName().replaceAll("\\d+", "#"), 1, Integer::sum);
            }
            now.forEach((name, count) -> peaks.merge(name, count, Math::max));
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The {@code limit} names with the highest peaks, highest first. */
    Map<String, Integer> top(int limit) {
        Map<String, Integer> top = new LinkedHashMap<>();
        peaks.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .forEach(entry -> top.put(entry.getKey(), entry.getValue()));
        return top;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join();
    }
}
