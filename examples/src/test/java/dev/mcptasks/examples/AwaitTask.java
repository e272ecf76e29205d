package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.fail;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Waits for a task row to reach a state no event announces (a remote task created, say): reads the store until the
 * row matches, failing with the last row read when the deadline passes. A real worker and a real server move the row;
 * the test has no clock of theirs to drive.
 */
final class AwaitTask {
    private static final long PAUSE_MILLIS = 25;

    private AwaitTask() {}

    static TaskRecord until(TaskService tasks, TaskId id, Duration wait, Predicate<TaskRecord> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            TaskRecord row = tasks.find(id).orElseThrow(() -> new AssertionError("task " + id + " is not stored"));
            if (condition.test(row)) {
                return row;
            }
            if (System.nanoTime() - deadline > 0) {
                return fail("task %s did not reach the awaited state within %s; last read: %s", id, wait, row);
            }
            TimeUnit.MILLISECONDS.sleep(PAUSE_MILLIS);
        }
    }
}
