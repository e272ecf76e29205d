package dev.mcptasks.adapters.admin;

import dev.mcptasks.ports.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The upstream request timers and error counters of the metrics registry ({@code mcp_tasks_upstream_request},
 * {@code mcp_tasks_upstream_errors}), per server, sampled into a short history for the servers page's charts. The
 * registry keeps totals only, so the history is made of samples: taken when the charts ask (at most every
 * {@link #MIN_INTERVAL}), kept for the last {@link #SAMPLES}, each point the mean latency and the error count of the
 * interval since the previous sample. Nothing is sampled while nobody looks, and a restart starts it afresh.
 */
final class UpstreamHistory {
    static final Duration MIN_INTERVAL = Duration.ofSeconds(2);
    static final int SAMPLES = 180;
    static final String REQUESTS = MicrometerMetrics.PREFIX + "upstream_request";
    static final String ERRORS = MicrometerMetrics.PREFIX + "upstream_errors";

    /** A server's totals at one instant. */
    record Totals(long requests, double totalMillis, double maxMillis, double errors) {}

    /** One point of a chart: the interval's mean latency (0 without requests) and its errors. */
    record Point(long epochSeconds, double meanMillis, double errors) {}

    private final MeterRegistry registry;
    private final Clock clock;
    private final Map<String, Deque<Point>> history = new TreeMap<>();
    private Map<String, Totals> last = Map.of();
    private long lastNanos;
    private boolean sampled;

    UpstreamHistory(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    /** Each server's totals now, from the registry. */
    Map<String, Totals> totals() {
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, double[]> times = new TreeMap<>();
        for (Timer timer : registry.find(REQUESTS).timers()) {
            String server = timer.getId().getTag("server");
            counts.computeIfAbsent(server, s -> new long[1])[0] += timer.count();
            double[] t = times.computeIfAbsent(server, s -> new double[2]);
            t[0] += timer.totalTime(TimeUnit.MILLISECONDS);
            t[1] = Math.max(t[1], timer.max(TimeUnit.MILLISECONDS));
        }
        Map<String, Double> errors = new TreeMap<>();
        for (Counter counter : registry.find(ERRORS).counters()) {
            errors.merge(counter.getId().getTag("server"), counter.count(), Double::sum);
        }
        Map<String, Totals> all = new TreeMap<>();
        for (String server : counts.keySet()) {
            all.put(server, new Totals(counts.get(server)[0], times.get(server)[0], times.get(server)[1],
                    errors.getOrDefault(server, 0.0)));
        }
        errors.forEach((server, n) -> all.putIfAbsent(server, new Totals(0, 0, 0, n)));
        return all;
    }

    /** Takes a sample unless the last one is recent; answers the history per server. */
    synchronized Map<String, Deque<Point>> sample() {
        long now = clock.nanoTime();
        if (!sampled || now - lastNanos >= MIN_INTERVAL.toNanos()) {
            Map<String, Totals> current = totals();
            long epoch = clock.now().getEpochSecond();
            if (sampled) {
                for (Map.Entry<String, Totals> entry : current.entrySet()) {
                    Totals before = last.getOrDefault(entry.getKey(), new Totals(0, 0, 0, 0));
                    Totals after = entry.getValue();
                    long requests = after.requests() - before.requests();
                    double mean = requests <= 0 ? 0 : (after.totalMillis() - before.totalMillis()) / requests;
                    Deque<Point> points = history.computeIfAbsent(entry.getKey(), s -> new ArrayDeque<>());
                    points.addLast(new Point(epoch, mean, Math.max(0, after.errors() - before.errors())));
                    while (points.size() > SAMPLES) {
                        points.removeFirst();
                    }
                }
            }
            last = current;
            lastNanos = now;
            sampled = true;
        }
        Map<String, Deque<Point>> copy = new LinkedHashMap<>();
        history.forEach((server, points) -> copy.put(server, new ArrayDeque<>(points)));
        return copy;
    }
}
