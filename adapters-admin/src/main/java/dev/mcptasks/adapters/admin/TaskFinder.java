package dev.mcptasks.adapters.admin;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Pages of tasks that match a {@link TaskFilter}, newest first. The store filters by status, server and principal;
 * tool and age are checked here on the rows it returns, read in batches, so a page of a rare tool may read many rows:
 * at most {@link #SCAN_LIMIT} per page, after which the page says it stopped early and its "next" link goes on from
 * there. Task ids sort by creation time, so a "created within" filter stops at the first older row.
 */
final class TaskFinder {
    static final int BATCH = 200;
    static final int SCAN_LIMIT = 5_000;
    /** How many cancellable tasks a bulk cancel may cover at once; beyond it the filter must be narrowed. */
    static final int BULK_LIMIT = 10_000;

    /**
     * @param tasks the page's tasks
     * @param next the cursor of the next page ({@code before}), or null at the end
     * @param stoppedEarly whether the scan limit ended the page before it was full
     */
    record Page(List<TaskRecord> tasks, TaskId next, boolean stoppedEarly) {}

    /**
     * The tasks a bulk cancel covers.
     *
     * @param ids the matching tasks not yet ended, newest first
     * @param ended how many matching tasks had already ended
     * @param tooMany whether more than {@link #BULK_LIMIT} would be cancelled
     */
    record Cancellable(List<TaskId> ids, int ended, boolean tooMany) {}

    private final TaskService tasks;
    private final Clock clock;

    TaskFinder(TaskService tasks, Clock clock) {
        this.tasks = tasks;
        this.clock = clock;
    }

    Page page(TaskFilter filter, TaskId before, int size) {
        Instant now = clock.now();
        List<TaskRecord> found = new ArrayList<>();
        TaskId cursor = before;
        int scanned = 0;
        boolean end = false;
        while (found.size() <= size && scanned < SCAN_LIMIT) {
            List<TaskRecord> batch = tasks.list(query(filter, cursor, BATCH));
            for (TaskRecord task : batch) {
                scanned++;
                cursor = task.id();
                if (filter.newer() && task.definition().createdAt().isBefore(filter.cutoff(now))) {
                    end = true;
                    break;
                }
                if (filter.matches(task, now)) {
                    found.add(task);
                    if (found.size() > size) {
                        break;
                    }
                }
            }
            if (end || batch.size() < BATCH) {
                end = true;
                break;
            }
        }
        if (found.size() > size) {
            return new Page(found.subList(0, size), found.get(size - 1).id(), false);
        }
        return end ? new Page(found, null, false) : new Page(found, cursor, true);
    }

    /**
     * Every matching task not yet ended, up to {@code upTo} (a task id: those created later are left out, so a
     * confirm acts on what the count covered, not on tasks submitted since), or from the newest when null.
     */
    Cancellable cancellable(TaskFilter filter, TaskId upTo) {
        Instant now = clock.now();
        List<TaskId> ids = new ArrayList<>();
        int ended = 0;
        TaskId cursor = null;
        while (true) {
            List<TaskRecord> batch = tasks.list(query(filter, cursor, TaskQuery.MAX_LIMIT));
            for (TaskRecord task : batch) {
                cursor = task.id();
                if (filter.newer() && task.definition().createdAt().isBefore(filter.cutoff(now))) {
                    return new Cancellable(ids, ended, false);
                }
                if ((upTo != null && task.id().compareTo(upTo) > 0) || !filter.matches(task, now)) {
                    continue;
                }
                if (task.status().isTerminal()) {
                    ended++;
                } else if (ids.size() == BULK_LIMIT) {
                    return new Cancellable(ids, ended, true);
                } else {
                    ids.add(task.id());
                }
            }
            if (batch.size() < TaskQuery.MAX_LIMIT) {
                return new Cancellable(ids, ended, false);
            }
        }
    }

    private static TaskQuery query(TaskFilter filter, TaskId before, int limit) {
        return new TaskQuery(filter.status(), filter.server(), limit, before, filter.principal());
    }
}
