package dev.mcptasks.chaos;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The user: submits the planned tasks through the store's service API (what {@code bin/mcp-tasks submit} calls) while
 * the faults happen, and cancels some of them ({@code bin/mcp-tasks cancel}).
 */
final class Submitter {
    private final TaskService service;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "chaos-user");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, TaskId> submitted = new ConcurrentHashMap<>();
    private final Map<CancelRequestOutcome, AtomicInteger> cancels = new ConcurrentHashMap<>();
    private final List<String> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicInteger busyRetries = new AtomicInteger();
    /** Submits and cancels planned but not yet made. */
    private final AtomicInteger outstanding = new AtomicInteger();

    Submitter(TaskService service) {
        this.service = service;
    }

    void start(List<TaskPlan> plans) {
        outstanding.addAndGet(plans.size());
        for (TaskPlan plan : plans) {
            timer.schedule(() -> submit(plan), plan.submitAtMs(), TimeUnit.MILLISECONDS);
        }
    }

    /** Waits until every submit and cancel has been made. */
    void finish() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (outstanding.get() > 0) {
            errors.add(outstanding.get() + " submits or cancels still pending after 60 s");
        }
        timer.shutdownNow();
    }

    int submittedCount() {
        return submitted.size();
    }

    Map<CancelRequestOutcome, AtomicInteger> cancels() {
        return cancels;
    }

    List<String> errors() {
        return errors;
    }

    /** User writes that the store refused as busy and the user retried (SQLite with three workers writing). */
    int busyRetries() {
        return busyRetries.get();
    }

    private void submit(TaskPlan plan) {
        try {
            TaskId id = submitRetryingBusy(plan);
            submitted.put(plan.key(), id);
            if (plan.cancelAfterMs() >= 0) {
                outstanding.incrementAndGet();
                timer.schedule(() -> cancel(id), plan.cancelAfterMs(), TimeUnit.MILLISECONDS);
            }
        } catch (RuntimeException e) {
            errors.add("submit " + plan.key() + ": " + e);
        } finally {
            outstanding.decrementAndGet();
        }
    }

    /** A user whose submit met a busy store tries again a few times, as a caller of the API would. */
    private TaskId submitRetryingBusy(TaskPlan plan) {
        return retryingBusy(() -> service.submit(WorkerPool.SERVER, "work", plan.arguments()).id());
    }

    /**
     * Runs one user write, trying again a few times while the store answers busy: on SQLite a serve process stopped
     * (SIGSTOP) inside its write transaction holds the write lock for longer than the busy timeout. Nothing was
     * written by a busy attempt, and both user writes are safe to repeat (a cancel request is idempotent).
     */
    private <T> T retryingBusy(Supplier<T> write) {
        for (int attempt = 1; ; attempt++) {
            try {
                return write.get();
            } catch (TransientRepositoryException e) {
                if (attempt == 5) {
                    throw e;
                }
                busyRetries.incrementAndGet();
                try {
                    Thread.sleep(200L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private void cancel(TaskId id) {
        try {
            cancels.computeIfAbsent(retryingBusy(() -> service.requestCancel(id)), outcome -> new AtomicInteger()).incrementAndGet();
        } catch (RuntimeException e) {
            errors.add("cancel " + id + ": " + e);
        } finally {
            outstanding.decrementAndGet();
        }
    }
}
