package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.TaskSummary;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code show ID}: everything known of one task. */
@Command(name = "show", description = "Show one task: status, result, error, attempts, lease, cancel and notification.")
final class ShowCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(names = "--json", description = "Print a JSON object.")
    boolean json;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        Optional<TaskRecord> found = app.get(TaskService.class).find(TaskId.of(id));
        if (found.isEmpty()) {
            context.err().println("mcp-tasks: no such task: " + id);
            return ExitCodes.NOT_FOUND;
        }
        TaskRecord task = found.get();
        if (json) {
            context.out().println(TaskJson.write(TaskJson.detail(task)));
        } else {
            print(task, context.out());
        }
        return ExitCodes.OK;
    }

    private static void print(TaskRecord task, PrintWriter out) {
        TaskRecord.State state = task.state();
        TaskRecord.Control control = task.control();
        TaskRecord.Lease lease = task.lease();
        TaskRecord.Outbox outbox = task.outbox();
        line(out, "id", task.id());
        line(out, "server", task.definition().serverName() + " (" + task.definition().driver() + ")");
        line(out, "tool", task.definition().toolName());
        line(out, "arguments", task.definition().argumentsJson());
        line(out, "status", task.status().wireName());
        line(out, "status message", state.statusMessage());
        line(out, "remote task", state.remoteTaskId());
        line(out, "created", task.definition().createdAt());
        line(out, "updated", state.updatedAt());
        line(out, "completed", state.completedAt());
        line(out, "result", state.resultJson() == null ? null
                : state.resultJson() + (state.resultTruncated() ? " (truncated preview)" : ""));
        line(out, "error", state.error());
        line(out, "error code", state.errorCode());
        line(out, "protocol", protocol(task));
        line(out, "input required", state.inputRequiredJson());
        input(task, out);
        line(out, "attempts", "submit " + control.submitAttemptCount() + ", poll " + control.pollAttemptCount()
                + ", cancel " + control.cancelAttemptCount() + "; consecutive errors "
                + control.consecutiveErrorCount());
        line(out, "last error", control.lastPollError());
        line(out, "last cancel error", control.lastCancelError());
        line(out, "next control", control.nextControlAt());
        line(out, "lease", lease.isHeld()
                ? lease.phase().wireName() + " by " + lease.owner() + " until " + lease.expiresAt() : "none");
        line(out, "endpoint owner", state.endpointOwner());
        line(out, "created by", state.createdBy());
        line(out, "cancel", TaskSummary.cancelState(control));
        line(out, "notification", outbox.status().wireName() + " (event " + outbox.eventVersion() + ", notified "
                + outbox.notifiedVersion() + (outbox.error() == null ? "" : ", error: " + outbox.error()) + ")");
    }

    private static String protocol(TaskRecord task) {
        if (TaskJson.generation(task) == null) {
            return "- (decided when the task is created)";
        }
        String version = task.state().protocolVersion();
        return (version == null ? "-" : version) + " (" + InputRequests.generation(task).label() + ")";
    }

    /**
     * The pending input requests and how to answer them: from mcp-tasks (the exact command) for a 2026-07-28 task;
     * for a 2025-11-25 task why not.
     */
    private static void input(TaskRecord task, PrintWriter out) {
        if (task.status() != TaskStatus.INPUT_REQUIRED) {
            return;
        }
        Set<String> pending = InputRequests.pendingAnswerKeys(task);
        List<InputRequests.InputRequest> requests = InputRequests.of(task);
        for (InputRequests.InputRequest request : requests) {
            line(out, "input request", request.key() + ": " + (request.method() == null ? "-" : request.method())
                    + (request.message() == null ? "" : " \"" + request.message() + "\"")
                    + (pending.contains(request.key()) ? " [answer waiting to be delivered]" : ""));
        }
        line(out, "pending answers", pending.isEmpty() ? null : String.join(", ", pending));
        if (!InputRequests.answerable(task)) {
            line(out, "answer", "not from mcp-tasks: " + InputRequests.ANSWERS_2025);
            return;
        }
        if (requests.isEmpty()) {
            line(out, "answer", "no readable input requests stored");
            return;
        }
        for (InputRequests.InputRequest request : requests) {
            if (!pending.contains(request.key())) {
                line(out, "answer", "mcp-tasks answer " + task.id() + " " + request.key() + " --json '"
                        + InputRequests.answerTemplate(request.method()) + "' (or --file PATH)");
            }
        }
    }

    private static void line(PrintWriter out, String label, Object value) {
        out.printf("%-18s %s%n", label + ":", value == null ? "-" : value);
    }
}
