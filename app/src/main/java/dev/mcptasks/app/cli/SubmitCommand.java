package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.repository.TaskRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code submit SERVER TOOL}: persists a pending task; a serving worker creates it remotely. */
@Command(name = "submit", description = "Persist a tool call as a pending task; a serving worker runs it.")
final class SubmitCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "SERVER", description = "A server configured under mcpServers.")
    String server;

    @Parameters(index = "1", paramLabel = "TOOL", description = "The tool to call.")
    String tool;

    @Option(names = "--args", paramLabel = "JSON", defaultValue = "{}", description = "Tool arguments: a JSON object.")
    String arguments;

    @Option(names = "--ttl-ms", paramLabel = "N", description = "Task ttl to request, in milliseconds.")
    Long ttlMs;

    @Option(names = "--json", description = "Print {\"id\": ...}.")
    boolean json;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        TaskRecord task = app.get(TaskService.class).submit(server, tool, arguments, ttlMs);
        if (json) {
            context.out().println(TaskJson.write(TaskJson.MAPPER.createObjectNode().put("id", task.id().value())));
        } else {
            context.out().println(task.id().value());
        }
        return ExitCodes.OK;
    }
}
