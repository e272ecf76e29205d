package dev.mcptasks.bench;

import dev.mcptasks.core.runtime.RuntimeMetrics;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renewal cost: K claims in flight (create calls that never answer, K slots), shipped settings except a shorter lease
 * so renewals come every {@code lease/3} within a short window, which opens one renewal interval after the last call
 * went in flight; the process CPU over the window (the whole JVM: the worker's renewals and its idle ticks, the
 * bench's own sleep) as a share of one core, and per renewal.
 */
final class RenewalCpu {
    static final Duration LEASE = Duration.ofSeconds(15);

    private final BenchDatabase db;
    private final Clock clock;

    RenewalCpu(BenchDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** {@code template} must hold at least {@code inFlight} pending tasks. */
    Figure run(String template, int inFlight, Duration window) throws Exception {
        String name = "renew_" + inFlight;
        db.copy(template, name);
        RuntimeSettings settings = McpTasksWorker.shipped().withLease(LEASE).withMaxConcurrentControlCalls(inFlight);
        HangingDriver driver = new HangingDriver();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Object> details = new LinkedHashMap<>();
        double cpuShare;
        try (CloseableTaskRepository store = db.openStore(name, clock, new RandomIdGenerator(clock));
                McpTasksWorker worker = new McpTasksWorker("renewals", settings, store, clock, driver)) {
            worker.start();
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // until every call is in flight, or the claims stop coming for 10 s (a worker that cannot claim them all)
            long progressedAt = System.nanoTime();
            int seen = 0;
            while (driver.calls() < inFlight && System.nanoTime() < until
                    && System.nanoTime() - progressedAt < Duration.ofSeconds(10).toNanos()) {
                Thread.sleep(50);
                if (driver.calls() > seen) {
                    seen = driver.calls();
                    progressedAt = System.nanoTime();
                }
            }
            // the window measures the steady cost: it opens once the claiming burst's own work settled and every
            // claim has been renewed once (one renewal interval), so the renewal path is compiled and the one-off
            // cost of its first runs (the JIT compiler's threads count in the process CPU) stays out of it
            Thread.sleep(Math.max(500, settings.renewalInterval().toMillis()));
            threads.resetPeakThreadCount();
            RuntimeMetrics before = worker.metrics();
            long cpuBefore = os.getProcessCpuTime();
            long start = System.nanoTime();
            Thread.sleep(window.toMillis());
            long cpu = os.getProcessCpuTime() - cpuBefore;
            long elapsed = System.nanoTime() - start;
            RuntimeMetrics after = worker.metrics();
            long renewals = after.renewals() - before.renewals();
            cpuShare = cpu / (double) elapsed * 100;
            details.put("requested_in_flight", inFlight);
            details.put("in_flight", driver.calls());
            details.put("window_s", window.toSeconds());
            details.put("lease_s", LEASE.toSeconds());
            details.put("renewals_in_window", renewals);
            // each claim is renewed every renewal interval: what the window should hold
            details.put("expected_renewals", (long) (driver.calls() * (window.toMillis()
                    / (double) settings.renewalInterval().toMillis())));
            details.put("ownership_losses_in_window", after.ownershipLosses() - before.ownershipLosses());
            details.put("cpu_ms_per_renewal", renewals == 0 ? null
                    : McpTasksBurnDown.round(cpu / 1e6 / renewals));
            details.put("peak_threads", threads.getPeakThreadCount());
            // taken after the window, so counting costs the measured CPU nothing; idle pooled threads stay alive
            details.put("threads_by_name", ThreadCensus.top(5));
        }
        return new Figure(db.key(), "renewal CPU", "mcp-tasks, " + inFlight + " calls in flight, lease "
                + LEASE.toSeconds() + " s", McpTasksBurnDown.round(cpuShare), "% of one core", details);
    }
}
