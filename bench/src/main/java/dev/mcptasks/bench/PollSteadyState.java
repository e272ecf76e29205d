package dev.mcptasks.bench;

import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The steady state of many long tasks (issue 23): K remote tasks in flight on one worker with shipped settings, each
 * polled at the server's interval ({@link #POLL_EVERY} by default; the create and every status answer carry it as
 * {@code pollAfter}); the status answer never changes. Over a window that opens one interval after the last create, it
 * reports store transactions per poll (the figure), process CPU per poll, the polls made against those the interval
 * asks for, and the heap each task in flight costs (after a full GC, against the heap before the worker started).
 */
final class PollSteadyState {
    static final Duration POLL_EVERY = Duration.ofSeconds(5);

    private final BenchDatabase db;
    private final Clock clock;
    private final Duration interval;

    PollSteadyState(BenchDatabase db, Clock clock) {
        this(db, clock, POLL_EVERY);
    }

    /** @param interval the server's poll interval (the smoke test's is short) */
    PollSteadyState(BenchDatabase db, Clock clock, Duration interval) {
        this.db = db;
        this.clock = clock;
        this.interval = interval;
    }

    /** {@code template} must hold at least {@code inFlight} pending tasks. */
    Figure run(String template, int inFlight, Duration window) throws Exception {
        String name = "polls_" + inFlight;
        db.copy(template, name);
        try (var monitor = db.monitor(name)) {
            Store.keepPending(monitor, inFlight);
        }
        RuntimeSettings settings = McpTasksWorker.shipped();
        WorkingDriver driver = new WorkingDriver(interval);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        Duration measured = window.compareTo(interval.multipliedBy(2)) < 0 ? interval.multipliedBy(2) : window;
        Map<String, Object> details = new LinkedHashMap<>();
        double transactionsPerPoll;
        try (var store = db.openStore(name, clock, new RandomIdGenerator(clock))) {
            long heapBefore = usedHeapAfterGc(memory);
            try (McpTasksWorker worker = new McpTasksWorker("polls", settings, store, clock, driver)) {
                worker.start();
                long until = System.nanoTime() + Duration.ofSeconds(180).toNanos();
                while (driver.creates() < inFlight && System.nanoTime() < until) {
                    Thread.sleep(50);
                }
                // one whole interval after the last create: every task has been polled once, the burst has settled
                Thread.sleep(interval.toMillis());
                WorkCounts counts;
                long polls;
                long cpu;
                long elapsed;
                try (WorkMeter meter = db.meter(name)) {
                    long pollsBefore = driver.polls();
                    long cpuBefore = os.getProcessCpuTime();
                    long start = System.nanoTime();
                    Thread.sleep(measured.toMillis());
                    cpu = os.getProcessCpuTime() - cpuBefore;
                    elapsed = System.nanoTime() - start;
                    polls = driver.polls() - pollsBefore;
                    counts = meter.read(0);
                }
                long heapAfter = usedHeapAfterGc(memory);
                double seconds = elapsed / 1e9;
                details.put("in_flight", driver.creates());
                details.put("poll_interval_s", McpTasksBurnDown.round(interval.toMillis() / 1e3));
                details.put("window_s", McpTasksBurnDown.round(seconds));
                details.put("polls", polls);
                details.put("polls_asked_for", Math.round(driver.creates() * seconds * 1e3 / interval.toMillis()));
                details.put("polls_per_s", McpTasksBurnDown.round(polls / seconds));
                details.put("cpu_share_of_one_core_pct", McpTasksBurnDown.round(cpu / (double) elapsed * 100));
                details.put("cpu_us_per_poll", polls == 0 ? null : McpTasksBurnDown.round(cpu / 1e3 / polls));
                details.put("heap_bytes_per_task_in_flight",
                        Math.round((heapAfter - heapBefore) / (double) Math.max(1, driver.creates())));
                details.put("slots", settings.maxConcurrentControlCalls());
                if (polls > 0) {
                    details.putAll(counts.perTask(polls));
                }
                Object perPoll = details.get("transactions_per_task");
                transactionsPerPoll = perPoll instanceof Double value ? value : -1;
            }
        }
        return new Figure(db.key(), "poll steady state", "mcp-tasks, " + inFlight + " remote tasks in flight, polled"
                + " every " + McpTasksBurnDown.round(interval.toMillis() / 1e3) + " s", transactionsPerPoll,
                "transactions/poll", details);
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Creates answer "working, ask again in {@code interval}", and so does every status call. */
    private static final class WorkingDriver implements TaskDriver {
        private final AtomicLong creates = new AtomicLong();
        private final AtomicLong polls = new AtomicLong();
        private final Duration interval;

        WorkingDriver(Duration interval) {
            this.interval = interval;
        }

        long creates() {
            return creates.get();
        }

        long polls() {
            return polls.get();
        }

        @Override
        public String name() {
            return NoopDriver.NAME;
        }

        @Override
        public CompletableFuture<SubmitResult> submit(SubmitCall call) {
            creates.incrementAndGet();
            return CompletableFuture.completedFuture(new SubmitResult(working("r-" + call.taskId().value()),
                    NoopDriver.PROTOCOL, false));
        }

        @Override
        public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
            polls.incrementAndGet();
            return CompletableFuture.completedFuture(working(task.remoteTaskId()));
        }

        @Override
        public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
            return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.UNSUPPORTED,
                    "the bench driver does not cancel"));
        }

        private RemoteTaskSnapshot working(String remoteId) {
            return RemoteTaskSnapshot.of(remoteId, TaskStatus.WORKING).withPollAfter(interval);
        }
    }
}
