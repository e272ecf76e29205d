package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.TaskId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Records the runtime's milestones so a test can await one (with a generous bound) instead of sleeping. */
final class RecordingListener implements RuntimeListener {
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    enum Type { RENEWAL, RENEWED, LOST, FINISHED, BACKGROUND, SETTLED, NOTIFIED, WRITE_RETRY }

    record Event(Type type, TaskId task, String detail) {}

    private final List<Event> events = new ArrayList<>();
    private final java.util.Map<TaskId, Runnable> beforeRenewed = new java.util.concurrent.ConcurrentHashMap<>();

    /** Runs {@code action} once, on the renewing thread, when the next renewal of {@code task} succeeds. */
    void beforeNextRenewed(TaskId task, Runnable action) {
        beforeRenewed.put(task, action);
    }

    @Override
    public void renewalDecided(TaskId task, RenewalOutcome outcome) {
        if (outcome.renewed()) {
            Runnable action = beforeRenewed.remove(task);
            if (action != null) {
                action.run();
            }
        }
        add(new Event(Type.RENEWAL, task, outcome.describe()));
        if (outcome.renewed()) {
            add(new Event(Type.RENEWED, task, ""));
        }
    }

    @Override
    public void ownershipLost(TaskId task, String cause) {
        add(new Event(Type.LOST, task, cause));
    }

    @Override
    public void operationFinished(TaskId task) {
        add(new Event(Type.FINISHED, task, ""));
    }

    @Override
    public void movedToBackground(TaskId task) {
        add(new Event(Type.BACKGROUND, task, ""));
    }

    @Override
    public void operationSettled(TaskId task) {
        add(new Event(Type.SETTLED, task, ""));
    }

    @Override
    public void notificationRecorded(TaskId task, dev.mcptasks.ports.notification.DeliveryResult result) {
        add(new Event(Type.NOTIFIED, task, result.toString()));
    }

    @Override
    public void finalWriteRetry(TaskId task, Duration delay) {
        add(new Event(Type.WRITE_RETRY, task, delay.toString()));
    }

    private synchronized void add(Event event) {
        events.add(event);
        notifyAll();
    }

    synchronized int count(Type type, TaskId task) {
        return (int) events.stream().filter(e -> e.type() == type && e.task().equals(task)).count();
    }

    synchronized List<Event> events(Type type, TaskId task) {
        return events.stream().filter(e -> e.type() == type && e.task().equals(task)).toList();
    }

    /** Waits until {@code condition} holds on the recorded events. */
    synchronized void awaitCondition(String what, java.util.function.Predicate<RecordingListener> condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.test(this)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + what + " within " + TIMEOUT + "; recorded: " + events);
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** Waits until at least {@code n} events of {@code type} for {@code task} were recorded. */
    synchronized void await(Type type, TaskId task, int n) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (count(type, task) < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + n + " " + type + " events for " + task + " within " + TIMEOUT
                        + "; recorded: " + events);
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
