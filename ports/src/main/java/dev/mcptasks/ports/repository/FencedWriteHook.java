package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;

/**
 * A seam for tests: every repository calls it immediately before executing a fenced conditional UPDATE, after any
 * preparation and before taking a connection or lock for the statement, so a test can pause a stale write at the
 * last possible moment, let another claim take the row, then resume it. Production code uses {@link #NONE}.
 */
@FunctionalInterface
public interface FencedWriteHook {
    FencedWriteHook NONE = (write, taskId) -> {};

    void beforeFencedWrite(FencedWrite write, TaskId taskId);
}
