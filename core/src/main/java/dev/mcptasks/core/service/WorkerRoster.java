package dev.mcptasks.core.service;

import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Registered workers, live or stale (no heartbeat within {@code workerStaleAfter}), with the control claims they
 * hold, as the command line's {@code workers} and the dashboard show them. Claims are found among the newest
 * nonterminal tasks (up to 1,000 per status).
 *
 * <p>Live or stale is the store's judgement, by the store's clock, the same one workers use to decide whether a
 * process-local task's creator may still be alive: the viewer's clock may disagree with it, and then an operator
 * would see a worker as stale that the workers themselves still treat as live (or the reverse).
 *
 * <p>A worker that crashed stays registered (nobody deregistered it). Once the store has not seen it for
 * {@link #GONE_AFTER} and it holds no claim, it is gone: left out unless asked for, and counted.
 */
public final class WorkerRoster {
    public static final Duration GONE_AFTER = Duration.ofHours(1);

    /** One worker: its registration, whether the store holds it live, and the claims it holds. */
    public record Entry(WorkerRecord worker, boolean live, List<TaskRecord> claims) {}

    /**
     * @param workers the workers shown
     * @param gone how many were left out as gone
     */
    public record Roster(List<Entry> workers, int gone) {}

    private WorkerRoster() {
    }

    /** The roster; with {@code all}, gone workers too. */
    public static Roster read(TaskService tasks, Duration staleAfter, boolean all) {
        Map<WorkerId, List<TaskRecord>> claims = claimsByOwner(tasks);
        List<Entry> entries = new ArrayList<>();
        int gone = 0;
        for (WorkerRecord worker : tasks.workers()) {
            boolean alive = tasks.isWorkerAlive(worker.id(), staleAfter);
            if (!all && !alive && !claims.containsKey(worker.id())
                    && !tasks.isWorkerAlive(worker.id(), GONE_AFTER)) {
                gone++;
                continue;
            }
            entries.add(new Entry(worker, alive, claims.getOrDefault(worker.id(), List.of())));
        }
        return new Roster(entries, gone);
    }

    private static Map<WorkerId, List<TaskRecord>> claimsByOwner(TaskService tasks) {
        Map<WorkerId, List<TaskRecord>> byOwner = new LinkedHashMap<>();
        for (TaskStatus status : List.of(TaskStatus.PENDING, TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED)) {
            for (TaskRecord task : tasks.list(new TaskQuery(status, null, TaskQuery.MAX_LIMIT, null))) {
                if (task.lease().isHeld()) {
                    byOwner.computeIfAbsent(task.lease().owner(), owner -> new ArrayList<>()).add(task);
                }
            }
        }
        return byOwner;
    }
}
