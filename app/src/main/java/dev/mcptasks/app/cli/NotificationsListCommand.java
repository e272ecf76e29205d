package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code notifications list}: the newest dead letters, the version that died and why. */
@Command(name = "list", description = "List dead-lettered notifications, newest first.")
final class NotificationsListCommand implements Callable<Integer> {
    @ParentCommand
    NotificationsCommand parent;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N dead letters (1..1000).")
    int limit;

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        return ClientCommand.openAndRun(parent.root, this::run);
    }

    private int run(Application app, AppConfig config, CliContext context) {
        List<TaskRecord> dead = app.get(TaskRepository.class).listDeadLetters(DeadLetterQuery.first(limit));
        if (json) {
            var array = TaskJson.MAPPER.createArrayNode();
            dead.forEach(task -> array.add(TaskJson.deadLetter(task)));
            context.out().println(TaskJson.write(array));
            return ExitCodes.OK;
        }
        TextTable table = new TextTable("TASK", "SERVER", "TOOL", "VERSION", "ATTEMPTS", "DIED", "ERROR");
        for (TaskRecord task : dead) {
            TaskRecord.Outbox outbox = task.outbox();
            table.row(task.id(), task.definition().serverName(), task.definition().toolName(),
                    outbox.dispatchVersion(), outbox.dispatchAttempt(), outbox.nextAt(), outbox.error());
        }
        table.print(context.out());
        return ExitCodes.OK;
    }
}
