package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cancel ID}: persists a cancel request; the worker that serves the task sends it. A repeat is harmless. */
@Command(name = "cancel", description = "Request cancellation of a task (a repeat is harmless).")
final class CancelCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(names = "--json", description = "Print {\"id\": ..., \"outcome\": ...}.")
    boolean json;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        CancelRequestOutcome outcome = app.get(TaskService.class).requestCancel(TaskId.of(id));
        if (json) {
            context.out().println(TaskJson.write(TaskJson.MAPPER.createObjectNode().put("id", id)
                    .put("outcome", outcome.name().toLowerCase(Locale.ROOT))));
        } else if (outcome != CancelRequestOutcome.NOT_FOUND) {
            context.out().println(switch (outcome) {
                case REQUESTED -> "cancel requested for " + id;
                case ALREADY_REQUESTED -> "cancel was already requested for " + id;
                case CANCELLED_LOCALLY -> "cancelled " + id + " (it had not been sent)";
                case ALREADY_TERMINAL -> id + " had already ended; nothing to cancel";
                case NOT_FOUND -> throw new AssertionError();
            });
        }
        if (outcome == CancelRequestOutcome.NOT_FOUND) {
            context.err().println("mcp-tasks: no such task: " + id);
            return ExitCodes.NOT_FOUND;
        }
        return ExitCodes.OK;
    }
}
