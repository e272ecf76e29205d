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
 */
@Command(name = "workers", description = "List live and stale workers with their claims.")
final class WorkersCommand extends ClientCommand {
    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        TaskService tasks = app.get(TaskService.class);
        Duration staleAfter = app.get(RuntimeSettings.class).workerStaleAfter();
        Map<WorkerId, List<TaskRecord>> claims = claimsByOwner(tasks);
        List<WorkerRecord> workers = tasks.workers();
        Map<WorkerId, Boolean> live = new LinkedHashMap<>();
        for (WorkerRecord worker : workers) {
            live.put(worker.id(), tasks.isWorkerAlive(worker.id(), staleAfter));
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
