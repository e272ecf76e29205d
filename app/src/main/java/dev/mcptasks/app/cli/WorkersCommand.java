package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.WorkerRoster;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code workers}: registered workers, live or stale by the store's clock, with the control claims they hold (the
 * {@link WorkerRoster}, which the dashboard shows too). Workers not seen for {@link #GONE_AFTER} that hold no claim
 * are hidden unless {@code --all}, and counted in a last line.
 */
@Command(name = "workers", description = "List live and recently stale workers with their claims.")
final class WorkersCommand extends ClientCommand {
    static final Duration GONE_AFTER = WorkerRoster.GONE_AFTER;

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Option(names = "--all", description = "Also list workers not seen for over an hour that hold no claim.")
    boolean all;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        WorkerRoster.Roster roster = WorkerRoster.read(app.get(TaskService.class),
                app.get(RuntimeSettings.class).workerStaleAfter(), all);
        if (json) {
            var array = TaskJson.MAPPER.createArrayNode();
            for (WorkerRoster.Entry entry : roster.workers()) {
                array.add(TaskJson.worker(entry.worker(), entry.live(), entry.claims()));
            }
            context.out().println(TaskJson.write(array));
            return ExitCodes.OK;
        }
        TextTable table = new TextTable("WORKER", "STATE", "HOST", "PID", "STARTED", "LAST SEEN", "CLAIMS");
        for (WorkerRoster.Entry entry : roster.workers()) {
            List<TaskRecord> held = entry.claims();
            table.row(entry.worker().id(), entry.live() ? "live" : "stale", entry.worker().host(),
                    entry.worker().pid(), entry.worker().startedAt(), entry.worker().lastSeenAt(),
                    held.isEmpty() ? "none" : held.size() + ": " + held.stream()
                            .map(task -> task.id() + "/" + task.lease().phase().wireName())
                            .collect(Collectors.joining(" ")));
        }
        table.print(context.out());
        int gone = roster.gone();
        if (gone > 0) {
            context.out().println(gone + " worker" + (gone == 1 ? "" : "s") + " not seen for over an hour and"
                    + " holding no claim " + (gone == 1 ? "is" : "are") + " hidden ('workers --all' lists them)");
        }
        return ExitCodes.OK;
    }
}
