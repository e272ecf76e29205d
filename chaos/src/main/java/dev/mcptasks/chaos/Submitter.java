package dev.mcptasks.chaos;

import dev.mcptasks.app.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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

    private void submit(TaskPlan plan) {
        try {
            TaskId id = service.submit(WorkerPool.SERVER, "work", plan.arguments()).id();
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

    private void cancel(TaskId id) {
        try {
            cancels.computeIfAbsent(service.requestCancel(id), outcome -> new AtomicInteger()).incrementAndGet();
        } catch (RuntimeException e) {
            errors.add("cancel " + id + ": " + e);
        } finally {
            outstanding.decrementAndGet();
        }
    }
}
