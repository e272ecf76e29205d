package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
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
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code workers}: registered workers, live or stale (no heartbeat within {@code workerStaleAfter}), with the control
 * claims they hold. Claims are found among the newest nonterminal tasks (up to 1,000 per status).
 *
 * <p>Live or stale is the store's judgement, by the store's clock, the same one workers use to decide whether a
 * process-local task's creator may still be alive: this machine's clock may disagree with it, and then an operator
 * would see a worker as stale that the workers themselves still treat as live (or the reverse).
 *
 * <p>A worker that crashed stays registered (nobody deregistered it). Once the store has not seen it for
 * {@link #GONE_AFTER} and it holds no claim, it is gone: hidden unless {@code --all}, and counted in a last line.
 */
@Command(name = "workers", description = "List live and recently stale workers with their claims.")
final class WorkersCommand extends ClientCommand {
    static final Duration GONE_AFTER = Duration.ofHours(1);

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Option(names = "--all", description = "Also list workers not seen for over an hour that hold no claim.")
    boolean all;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        TaskService tasks = app.get(TaskService.class);
        Duration staleAfter = app.get(RuntimeSettings.class).workerStaleAfter();
        Map<WorkerId, List<TaskRecord>> claims = claimsByOwner(tasks);
        List<WorkerRecord> workers = new ArrayList<>();
        Map<WorkerId, Boolean> live = new LinkedHashMap<>();
        int gone = 0;
        for (WorkerRecord worker : tasks.workers()) {
            boolean alive = tasks.isWorkerAlive(worker.id(), staleAfter);
            if (!all && !alive && !claims.containsKey(worker.id())
                    && !tasks.isWorkerAlive(worker.id(), GONE_AFTER)) {
                gone++;
                continue;
            }
            workers.add(worker);
            live.put(worker.id(), alive);
        }
        if (json) {
            var array = TaskJson.MAPPER.createArrayNode();
            for (WorkerRecord worker : workers) {
                array.add(TaskJson.worker(worker, live.get(worker.id()),
                        claims.getOrDefault(worker.id(), List.of())));
            }
            context.out().println(TaskJson.write(array));
            return ExitCodes.OK;
        }
        TextTable table = new TextTable("WORKER", "STATE", "HOST", "PID", "STARTED", "LAST SEEN", "CLAIMS");
        for (WorkerRecord worker : workers) {
            List<TaskRecord> held = claims.getOrDefault(worker.id(), List.of());
            table.row(worker.id(), live.get(worker.id()) ? "live" : "stale", worker.host(), worker.pid(),
                    worker.startedAt(), worker.lastSeenAt(), held.isEmpty() ? "none"
                            : held.size() + ": " + held.stream()
                                    .map(task -> task.id() + "/" + task.lease().phase().wireName())
                                    .collect(Collectors.joining(" ")));
        }
        table.print(context.out());
        if (gone > 0) {
            context.out().println(gone + " worker" + (gone == 1 ? "" : "s") + " not seen for over an hour and"
                    + " holding no claim " + (gone == 1 ? "is" : "are") + " hidden ('workers --all' lists them)");
        }
        return ExitCodes.OK;
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
