package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.TaskSummary;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code list}: the newest tasks, optionally of one status or server. */
@Command(name = "list", description = "List tasks, newest first.")
final class ListCommand extends ClientCommand {
    @Option(names = "--status", paramLabel = "S",
            description = "pending, working, input_required, completed, failed or cancelled.")
    String status;

    @Option(names = "--server", paramLabel = "NAME", description = "Only tasks of this server.")
    String server;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N tasks (1..1000).")
    int limit;

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        TaskStatus wanted = status == null ? null : TaskStatus.fromWire(status);
        List<TaskRecord> tasks = app.get(TaskService.class).list(new TaskQuery(wanted, server, limit, null));
        if (json) {
            var array = TaskJson.MAPPER.createArrayNode();
            tasks.forEach(task -> array.add(TaskJson.summary(task)));
            context.out().println(TaskJson.write(array));
            return ExitCodes.OK;
        }
        TextTable table = new TextTable("ID", "STATUS", "SERVER", "TOOL", "UPDATED", "MESSAGE");
        for (TaskRecord task : tasks) {
            table.row(task.id(), task.status().wireName(), task.definition().serverName(),
                    task.definition().toolName(), task.state().updatedAt(), TaskSummary.message(task));
        }
        table.print(context.out());
        return ExitCodes.OK;
    }
}
