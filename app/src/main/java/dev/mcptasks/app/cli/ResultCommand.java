package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code result ID [--wait SECONDS]}: prints the stored result JSON once the task is terminal, waiting by polling the
 * store. Exit 0 completed, 1 failed or cancelled (the error on stderr), 3 not terminal by the deadline, 4 no task.
 */
@Command(name = "result", description = "Print a task's result JSON (exit 0 completed, 1 failed/cancelled,"
        + " 3 not terminal by the deadline, 4 no such task).")
final class ResultCommand extends ClientCommand {
    /** How often the store is read while waiting: cheap for the store, prompt enough for a person. */
    static final Duration POLL = Duration.ofMillis(500);

    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "0",
            description = "Wait up to SECONDS for the task to end.")
    long waitSeconds;

    @Override
    int run(Application app, AppConfig config, CliContext context) throws InterruptedException {
        if (waitSeconds < 0) {
            throw new ParameterException(root.spec.commandLine(),
                    "--wait must not be negative, was " + waitSeconds);
        }
        TaskService tasks = app.get(TaskService.class);
        Clock clock = app.get(Clock.class);
        TaskId taskId = TaskId.of(id);
        long deadline = clock.nanoTime() + Duration.ofSeconds(waitSeconds).toNanos();
        while (true) {
            Optional<TaskRecord> found = tasks.find(taskId);
            if (found.isEmpty()) {
                context.err().println("mcp-tasks: no such task: " + id);
                return ExitCodes.NOT_FOUND;
            }
            TaskRecord task = found.get();
            if (task.status().isTerminal()) {
                return report(task, context);
            }
            long remaining = deadline - clock.nanoTime();
            if (remaining <= 0) {
                context.err().println("mcp-tasks: task " + id + " is still " + task.status().wireName()
                        + (task.state().statusMessage() == null ? "" : ": " + task.state().statusMessage()));
                return ExitCodes.NOT_TERMINAL;
            }
            context.sleeper().sleep(Duration.ofNanos(Math.min(remaining, POLL.toNanos())));
        }
    }

    private static int report(TaskRecord task, CliContext context) {
        TaskRecord.State state = task.state();
        switch (task.status()) {
            case COMPLETED -> {
                context.out().println(state.resultJson() == null ? "null" : state.resultJson());
                if (state.resultTruncated()) {
                    context.err().println("mcp-tasks: the result was larger than maxResultBytes; this is a preview");
                }
                return ExitCodes.OK;
            }
            case FAILED -> {
                if (state.resultJson() != null) {
                    context.out().println(state.resultJson());
                }
                context.err().println("mcp-tasks: task " + task.id() + " failed"
                        + (state.errorCode() == null ? "" : " (" + state.errorCode() + ")")
                        + (state.error() == null ? "" : ": " + state.error()));
                return ExitCodes.FAILED;
            }
            default -> {
                context.err().println("mcp-tasks: task " + task.id() + " was cancelled"
                        + (state.statusMessage() == null ? "" : ": " + state.statusMessage()));
                return ExitCodes.FAILED;
            }
        }
    }
}
