package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The 2025-11-25 front: {@code initialize}, {@code ping}, {@code tools/list}, {@code tools/call} (with a
 * {@code task}: the CreateTaskResult once the row is stored; without: blocks until the task ends), and the tasks
 * utility served from the store. Every task handle is the row's own id.
 */
final class Front2025 {
    static final String VERSION = "2025-11-25";
    /** Versions whose clients we serve as they ask (no tasks before 2025-11-25: they do not know the capability). */
    private static final Set<String> ECHOED = Set.of(VERSION, "2025-06-18", "2025-03-26", "2024-11-05");
    static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
    /**
     * How long {@code tasks/cancel} waits for the cancel to settle (the worker's cancel confirmed upstream, or the
     * task ending otherwise) before it answers the task as it then is: still working, its status message saying the
     * cancel was requested.
     */
    static final Duration CANCEL_SETTLE_WAIT = Duration.ofSeconds(10);

    private final TaskService tasks;
    private final FrontCatalog catalog;
    private final ToolCalls calls;
    private final TaskWatcher watcher;
    private final StatusNotifier notifier;
    private final TaskShapes shapes;
    private final TaskPages pages;
    /** Plain calls still running after a while are handed off to tasks; null: held until they end. */
    private final Handoff handoff;
    /** Resources, prompts, completion and the log level, forwarded to the upstream servers. */
    private final Passthrough passthrough;

    Front2025(TaskService tasks, FrontCatalog catalog, ToolCalls calls, TaskWatcher watcher,
            StatusNotifier notifier, TaskShapes shapes, Handoff handoff, Passthrough passthrough) {
        this.handoff = handoff;
        this.passthrough = passthrough;
        this.tasks = tasks;
        this.catalog = catalog;
        this.calls = calls;
        this.watcher = watcher;
        this.notifier = notifier;
        this.shapes = shapes;
        this.pages = new TaskPages(tasks);
    }

    CompletableFuture<ObjectNode> handle(FrontRequest request, String method, ObjectNode params) {
        return switch (method) {
            case "initialize" -> initialize(params);
            case "ping" -> done(FrontJson.object());
            case "tools/list" -> toolsList();
            case "tools/call" -> toolsCall(request, params);
            case "tasks/get" -> done(get(request, params));
            case "tasks/result" -> result(request, find(request, params));
            case "tasks/cancel" -> cancel(request, params);
            case "tasks/list" -> done(list(request, params));
            default -> {
                if (Passthrough.handles(method, true)) {
                    yield passthrough.handle(request, method, params).thenApply(Front2025::as2025);
                }
                throw FrontError.methodNotFound(method);
            }
        };
    }

    /** Tools and tasks always; resources, prompts, completions and logging when an exposed server offers them. */
    private CompletableFuture<ObjectNode> initialize(ObjectNode params) {
        String asked = params.path("protocolVersion").textValue();
        ObjectNode result = FrontJson.object().put("protocolVersion", ECHOED.contains(asked) ? asked : VERSION);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools");
        ObjectNode taskCapabilities = capabilities.putObject("tasks");
        taskCapabilities.putObject("list");
        taskCapabilities.putObject("cancel");
        taskCapabilities.putObject("requests").putObject("tools").putObject("call");
        result.set("serverInfo", shapes.serverInfo());
        return passthrough.advertise(capabilities, true).thenApply(advertised -> result);
    }

    /** Upstream Tools renamed, with task support offered for every tool (every call is a durable task here). */
    private CompletableFuture<ObjectNode> toolsList() {
        return catalog.all().thenApply(tools -> {
            ObjectNode result = FrontJson.object();
            ArrayNode list = result.putArray("tools");
            for (FrontCatalog.FrontTool tool : tools) {
                ObjectNode json = tool.json().deepCopy();
                if (!json.path("execution").isObject()) {
                    json.putObject("execution");
                }
                ((ObjectNode) json.get("execution")).put("taskSupport", "optional");
                list.add(json);
            }
            if (handoff != null) {
                Handoff.tools().forEach(list::add);
            }
            return result;
        });
    }

    private CompletableFuture<ObjectNode> toolsCall(FrontRequest request, ObjectNode params) {
        if (handoff != null && Handoff.handles(Params.requiredString(params, "name"))) {
            ObjectNode arguments = Params.optionalObject(params, "arguments", "params.arguments");
            return handoff.call(request, params.get("name").textValue(),
                    arguments == null ? FrontJson.object() : arguments);
        }
        ObjectNode task = Params.optionalObject(params, "task", "params.task");
        Long ttl = task == null ? null : Params.ttl(task);
        return calls.submit(request, params, ttl).thenCompose(row -> {
            if (task != null) {
                if (request.session() != null) {
                    notifier.follow(request.session(), request.principal(), row);
                }
                ObjectNode created = FrontJson.object();
                created.set("task", shapes.task2025(row));
                return done(created);
            }
            // a plain call's answer is the tool's own result: no task is named in it. Its progress, if asked for,
            // is relayed as this process's worker hears it, else from each read of the row while it runs
            ProgressRelay progress = ProgressRelay.of(request, params);
            if (progress != null) {
                progress.listen(listener -> watcher.liveProgress(row.id(), listener));
            }
            CompletableFuture<ObjectNode> held = handoff != null ? handoff.hold(request, row, progress)
                    : watcher.until(request, row.id(), read -> {
                        if (progress != null) {
                            progress.seen(read);
                        }
                        return read.status().isTerminal();
                    }).thenApply(ended -> as2025(callResult(ended, false)));
            if (progress != null) {
                held.whenComplete((answer, error) -> progress.stop());
            }
            return held;
        });
    }

    /** {@code tasks/get}; the reading session follows the task from now on (status notifications). */
    private ObjectNode get(FrontRequest request, ObjectNode params) {
        TaskRecord row = find(request, params);
        if (request.session() != null) {
            notifier.follow(request.session(), request.principal(), row);
        }
        return shapes.task2025(row);
    }

    /** {@code tasks/result}: the call's own answer, held until the task ends; the same answer every time. */
    private CompletableFuture<ObjectNode> result(FrontRequest request, TaskRecord row) {
        CompletableFuture<TaskRecord> terminal = row.status().isTerminal() ? CompletableFuture.completedFuture(row)
                : watcher.until(request, row.id(), settled -> settled.status().isTerminal());
        return terminal.thenApply(ended -> as2025(callResult(ended, true)));
    }

    /**
     * What the call itself answers once its task ended: the CallToolResult (an error result included), tagged with
     * the task it ran as when {@code related} (a {@code tasks/result}); a failure without a result or a cancellation
     * is a JSON-RPC error naming the task.
     */
    static ObjectNode callResult(TaskRecord row, boolean related) {
        StoredOutcome outcome = StoredOutcome.of(row);
        ObjectNode result;
        if (outcome instanceof StoredOutcome.Succeeded succeeded) {
            result = succeeded.result();
        } else if (outcome instanceof StoredOutcome.ToolError toolError) {
            result = toolError.result();
        } else {
            throw outcome.asError(row.id().value());
        }
        if (related) {
            meta(result).putObject(RELATED_TASK).put("taskId", row.id().value());
        }
        return result;
    }

    /**
     * {@code tasks/cancel} answers the task once the cancel settled (the spec's answer is the task in
     * {@code cancelled}), or after {@link #CANCEL_SETTLE_WAIT} as it then is.
     */
    private CompletableFuture<ObjectNode> cancel(FrontRequest request, ObjectNode params) {
        TaskId id = Params.taskId(params);
        CancelRequestOutcome outcome = tasks.requestCancelFor(request.principal(), id);
        if (outcome == CancelRequestOutcome.NOT_FOUND) {
            throw FrontError.taskNotFound();
        }
        TaskRecord row = tasks.findFor(request.principal(), id).orElseThrow(FrontError::taskNotFound);
        if (outcome == CancelRequestOutcome.ALREADY_TERMINAL) {
            throw FrontError.invalidParams("Cannot cancel task in terminal status: " + shapes.task2025(row)
                    .path("status").asText());
        }
        if (row.status().isTerminal()) {
            return done(shapes.task2025(row));
        }
        return watcher.within(request, id, settled -> settled.status().isTerminal(), CANCEL_SETTLE_WAIT)
                .thenApply(settled -> shapes.task2025(settled.orElseGet(() -> find(request, params))));
    }

    private ObjectNode list(FrontRequest request, ObjectNode params) {
        TaskPages.Page page = pages.page(request.principal(), params);
        ObjectNode result = FrontJson.object();
        ArrayNode list = result.putArray("tasks");
        page.tasks().forEach(row -> list.add(shapes.task2025(row)));
        if (page.nextCursor() != null) {
            result.put("nextCursor", page.nextCursor());
        }
        return result;
    }

    /**
     * A result as a 2025-11-25 client gets it: without the 2026-07-28 extension's {@code resultType} (an upstream of
     * that generation stores its results with it).
     */
    private static ObjectNode as2025(ObjectNode result) {
        result.remove("resultType");
        return result;
    }

    private TaskRecord find(FrontRequest request, ObjectNode params) {
        return tasks.findFor(request.principal(), Params.taskId(params)).orElseThrow(FrontError::taskNotFound);
    }

    /** The result's {@code _meta} object, created when absent (a non-object one is replaced). */
    static ObjectNode meta(ObjectNode result) {
        if (!result.path("_meta").isObject()) {
            result.putObject("_meta");
        }
        return (ObjectNode) result.get("_meta");
    }

    private static CompletableFuture<ObjectNode> done(ObjectNode result) {
        return CompletableFuture.completedFuture(result);
    }
}
