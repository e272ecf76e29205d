package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Waits for a task row that real worker processes and a real server change: polls the store until the row matches,
 * and fails with the last row seen once the wait is over (the end-to-end tests have no clock of their own to drive).
 */
final class AwaitRow {
    private AwaitRow() {}

    static TaskRecord until(TaskRepository store, TaskId id, Duration wait, Predicate<TaskRecord> condition,
            Function<TaskRecord, Object> describe) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        TaskRecord row = store.find(id).orElseThrow();
        while (!condition.test(row)) {
            assertThat(System.nanoTime() < deadline).as("waiting for %s; last seen %s", id, describe.apply(row))
                    .isTrue();
            Thread.sleep(50);
            row = store.find(id).orElseThrow();
        }
        return row;
    }
}
