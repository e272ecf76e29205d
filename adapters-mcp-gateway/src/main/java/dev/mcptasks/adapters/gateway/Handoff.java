package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Hand-off for clients that cannot use tasks ({@code gateway.handoffSeconds}): most agents call tools plainly and
 * stop waiting after a few minutes. A plain call still running after the hand-off time is answered with a normal
 * result that says the call goes on as a task and how to follow it; the gateway then serves four tools of its own
 * to follow one's tasks: status, result (waiting at most the hand-off time again), cancel, and the list of one's
 * tasks. Their names start with {@link #PREFIX}, which no configured server can have (server names are checked).
 */
final class Handoff {
    static final String PREFIX = "mcp-tasks__";
    static final String STATUS = PREFIX + "task_status";
    static final String RESULT = PREFIX + "task_result";
    static final String CANCEL = PREFIX + "task_cancel";
    static final String LIST = PREFIX + "my_tasks";

    private final TaskService tasks;
    private final TaskWatcher watcher;
    private final TaskShapes shapes;
    private final TaskPages pages;
    private final Duration after;

    Handoff(TaskService tasks, TaskWatcher watcher, TaskShapes shapes, Duration after) {
        this.tasks = tasks;
        this.watcher = watcher;
        this.shapes = shapes;
        this.pages = new TaskPages(tasks);
        this.after = after;
    }

    /** The plain call's answer: its result if its task ends within the hand-off time, else the hand-off result. */
    CompletableFuture<ObjectNode> hold(FrontRequest request, TaskRecord row, ProgressRelay progress) {
        return watcher.within(request, row.id(), read -> {
            if (progress != null) {
                progress.seen(read);
            }
            return read.status().isTerminal();
        }, after).thenApply(ended -> ended.isPresent() ? plain(Front2025.callResult(ended.get(), false))
                : handedOff(find(request, row.id())));
    }

    /** The hand-off tools' definitions, listed after the upstream tools. */
    static List<ObjectNode> tools() {
        return List.of(
                tool(STATUS, "Status of a task this gateway runs for you (a tool call that went on as a task).",
                        true),
                tool(RESULT, "Result of a task this gateway runs for you: waits a while for it to end, else says"
                        + " it is still running.", true),
                tool(CANCEL, "Cancel a task this gateway runs for you.", true),
                tool(LIST, "Your most recent tasks on this gateway, newest first.", false));
    }

    static boolean handles(String name) {
        return name.startsWith(PREFIX);
    }

    /** A call of one of the hand-off tools. */
    CompletableFuture<ObjectNode> call(FrontRequest request, String name, ObjectNode arguments) {
        switch (name) {
            case STATUS:
                return done(describe(find(request, id(arguments))));
            case RESULT: {
                TaskRecord row = find(request, id(arguments));
                return row.status().isTerminal() ? done(plain(Front2025.callResult(row, false)))
                        : hold(request, row, null);
            }
            case CANCEL: {
                TaskId id = id(arguments);
                CancelRequestOutcome outcome = tasks.requestCancelFor(request.principal(), id);
                if (outcome == CancelRequestOutcome.NOT_FOUND) {
                    throw FrontError.invalidParams("Task not found");
                }
                return done(describe(find(request, id)));
            }
            case LIST: {
                TaskPages.Page page = pages.page(request.principal(), FrontJson.object());
                ObjectNode result = FrontJson.object();
                StringBuilder text = new StringBuilder(page.tasks().isEmpty() ? "You have no tasks." : "");
                ArrayNode list = result.putObject("structuredContent").putArray("tasks");
                for (TaskRecord row : page.tasks()) {
                    ObjectNode task = shapes.task2025(row);
                    list.add(task);
                    text.append(row.id().value()).append(' ').append(row.definition().toolName()).append(": ")
                            .append(task.path("status").asText()).append('\n');
                }
                result.putArray("content").addObject().put("type", "text").put("text", text.toString().strip());
                return done(result);
            }
            default:
                throw FrontError.invalidParams("Unknown tool: " + name);
        }
    }

    private ObjectNode handedOff(TaskRecord row) {
        String id = row.id().value();
        ObjectNode result = FrontJson.object();
        result.putArray("content").addObject().put("type", "text").put("text", "The call of "
                + row.definition().toolName() + " is still running after " + after.toSeconds() + " s and goes on"
                + " as task " + id + ". Call the tool " + RESULT + " with {\"taskId\": \"" + id + "\"} to get its"
                + " result (it waits up to " + after.toSeconds() + " s each time), " + STATUS + " to check on it,"
                + " or " + CANCEL + " to stop it.");
        result.set("structuredContent", shapes.task2025(row));
        return result;
    }

    private ObjectNode describe(TaskRecord row) {
        ObjectNode task = shapes.task2025(row);
        ObjectNode result = FrontJson.object();
        String message = task.path("statusMessage").asText(null);
        result.putArray("content").addObject().put("type", "text").put("text", "Task " + row.id().value() + " ("
                + row.definition().toolName() + ") is " + task.path("status").asText()
                + (message == null ? "." : ": " + message));
        result.set("structuredContent", task);
        return result;
    }

    /** A result as a 2025 client of a plain call gets it (no 2026-only fields). */
    private static ObjectNode plain(ObjectNode result) {
        result.remove("resultType");
        return result;
    }

    private TaskRecord find(FrontRequest request, TaskId id) {
        return tasks.findFor(request.principal(), id).orElseThrow(() -> FrontError.invalidParams("Task not found"));
    }

    private static TaskId id(ObjectNode arguments) {
        return Params.taskId(arguments);
    }

    private static ObjectNode tool(String name, String description, boolean takesTaskId) {
        ObjectNode tool = FrontJson.object().put("name", name).put("description", description);
        ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        if (takesTaskId) {
            properties.putObject("taskId").put("type", "string").put("description", "The task's id.");
            schema.putArray("required").add("taskId");
        }
        return tool;
    }

    private static CompletableFuture<ObjectNode> done(ObjectNode result) {
        return CompletableFuture.completedFuture(result);
    }
}
