package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.testkit.ManualClock;

/** One worker in a lifecycle test: its runtime, its recorded milestones and the clock that drives its timers. */
final class TestWorker {
    final WorkerRuntime runtime;
    final RecordingListener events;
    final ManualClock clock;
    private volatile boolean alive = true;

    TestWorker(WorkerRuntime runtime, RecordingListener events, ManualClock clock) {
        this.runtime = runtime;
        this.events = events;
        this.clock = clock;
    }

    void tick() {
        runtime.tick();
    }

    /** The process freezes: its timers never fire again (no renewals), as if it died without cleaning up. */
    void die() {
        alive = false;
    }

    boolean alive() {
        return alive;
    }

    RuntimeMetrics metrics() {
        return runtime.metrics();
    }

    void awaitRenewals(TaskId task, int n) {
        events.await(RecordingListener.Type.RENEWED, task, n);
    }

    void awaitRenewalAttempts(TaskId task, int n) {
        events.await(RecordingListener.Type.RENEWAL, task, n);
    }

    void awaitLoss(TaskId task) {
        events.await(RecordingListener.Type.LOST, task, 1);
    }

    void awaitFinished(TaskId task, int n) {
        events.await(RecordingListener.Type.FINISHED, task, n);
    }

    /** Waits for the {@code n}-th recorded delivery result of {@code task} (its outbox is settled for now). */
    void awaitNotified(TaskId task, int n) {
        events.await(RecordingListener.Type.NOTIFIED, task, n);
    }

    void awaitSettled(TaskId task, int n) {
        events.await(RecordingListener.Type.SETTLED, task, n);
    }

    int renewals(TaskId task) {
        return events.count(RecordingListener.Type.RENEWED, task);
    }
}
