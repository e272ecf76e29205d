package dev.mcptasks.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code list}: the newest tasks, optionally of one status or server. */
@Command(name = "list", description = "List tasks, newest first.")
final class ListCommand extends ClientCommand {
    private static final int PREVIEW_CHARS = 60;

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
                    task.definition().toolName(), task.state().updatedAt(), message(task));
        }
        table.print(context.out());
        return ExitCodes.OK;
    }

    /**
     * What a reader wants to know of a task at a glance: its error, a completed task's result (its first text, on
     * one line, cut short), else the last status message (a finished task's last progress text would mislead).
     */
    static String message(TaskRecord task) {
        TaskRecord.State state = task.state();
        if (state.errorCode() != null) {
            return state.errorCode() + ": " + state.error();
        }
        if (task.status() == TaskStatus.COMPLETED) {
            return "result: " + resultPreview(state.resultJson());
        }
        return task.status().isTerminal() ? task.status().wireName() : state.statusMessage();
    }

    private static String resultPreview(String resultJson) {
        if (resultJson == null) {
            return "none";
        }
        String text;
        try {
            JsonNode first = TaskJson.MAPPER.readTree(resultJson).path("content").path(0);
            text = first.path("type").asText().equals("text") ? first.path("text").asText()
                    : resultJson.length() + " bytes of JSON ('result ID' prints it)";
        } catch (JsonProcessingException e) {
            text = resultJson;
        }
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= PREVIEW_CHARS ? line : line.substring(0, PREVIEW_CHARS - 1) + "…";
    }
}
