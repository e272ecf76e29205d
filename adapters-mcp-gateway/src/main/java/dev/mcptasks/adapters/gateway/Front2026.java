package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.AnswerRejectedException;
import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The 2026-07-28 front (stateless, enveloped): {@code server/discover}, {@code tools/list}, {@code tools/call}
 * ({@code resultType: task} when the request declares the tasks extension, else held until the task ends, with
 * input rounds passed through as {@code resultType: input_required}), and the extension's {@code tasks/get},
 * {@code tasks/update} and {@code tasks/cancel} served from the store, and {@code subscriptions/listen} for their
 * {@code notifications/tasks} ({@link TaskListens}). {@code tasks/result} and {@code tasks/list} do not exist in this
 * generation.
 */
final class Front2026 {
    private final TaskService tasks;
    private final FrontCatalog catalog;
    private final ToolCalls calls;
    private final TaskWatcher watcher;
    private final TaskShapes shapes;
    /** Resources, prompts and completion, forwarded to the upstream servers. */
    private final Passthrough passthrough;
    /** {@code subscriptions/listen} for task notifications. */
    private final TaskListens listens;

    Front2026(TaskService tasks, FrontCatalog catalog, ToolCalls calls, TaskWatcher watcher, TaskShapes shapes,
            Passthrough passthrough, TaskListens listens) {
        this.passthrough = passthrough;
        this.listens = listens;
        this.tasks = tasks;
        this.catalog = catalog;
        this.calls = calls;
        this.watcher = watcher;
        this.shapes = shapes;
    }

    CompletableFuture<ObjectNode> handle(FrontRequest request, String method, ObjectNode params,
            Envelope2026 envelope) {
        CompletableFuture<ObjectNode> result = switch (method) {
            case "server/discover" -> discover();
            case "ping" -> done(FrontJson.object());
            case "tools/list" -> toolsList();
            case "tools/call" -> toolsCall(request, params, envelope);
            case "tasks/get" -> {
                envelope.requireTasks(method);
                yield done(shapes.detailedTask(find(request, Params.taskId(params))));
            }
            case "tasks/update" -> {
                envelope.requireTasks(method);
                yield done(update(request, params));
            }
            case "tasks/cancel" -> {
                envelope.requireTasks(method);
                yield done(cancel(request, params));
            }
            case TaskListens.METHOD -> listens.listen(request, params, envelope);
            default -> {
                if (Passthrough.handles(method, false)) {
                    yield passthrough.handle(request, method, params)
                            .thenApply(answer -> method.endsWith("/list") ? notCached(answer) : answer);
                }
                throw FrontError.methodNotFound(method);
            }
        };
        return result.thenApply(this::stamp);
    }

    /** Tools and the tasks extension; resources, prompts and completions when an exposed server offers them. */
    private CompletableFuture<ObjectNode> discover() {
        ObjectNode result = FrontJson.object();
        result.putArray("supportedVersions").add(Envelope2026.VERSION);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools");
        capabilities.putObject("extensions").putObject(Envelope2026.TASKS_EXTENSION);
        return passthrough.advertise(capabilities, false).thenApply(advertised -> notCached(result));
    }

    /** Upstream Tools renamed; per-tool task metadata does not exist in this generation, so it is removed. */
    private CompletableFuture<ObjectNode> toolsList() {
        return catalog.all().thenApply(tools -> {
            ObjectNode result = FrontJson.object();
            ArrayNode list = result.putArray("tools");
            for (FrontCatalog.FrontTool tool : tools) {
                ObjectNode json = tool.json().deepCopy();
                if (json.get("execution") instanceof ObjectNode execution) {
                    execution.remove("taskSupport");
                    if (execution.isEmpty()) {
                        json.remove("execution");
                    }
                }
                list.add(json);
            }
            return notCached(result);
        });
    }

    private CompletableFuture<ObjectNode> toolsCall(FrontRequest request, ObjectNode params,
            Envelope2026 envelope) {
        JsonNode state = params.get("requestState");
        if (state != null && !state.isNull()) {
            // the retry of a call we answered with input_required: answer the task's requests, then wait on it
            InputRound round = InputRound.decode(state);
            find(request, round.taskId());
            ObjectNode responses = Params.optionalObject(params, "inputResponses", "params.inputResponses");
            Set<String> answered = responses == null ? Set.of() : answer(request, round.taskId(), responses);
            return hold(request, round.plus(answered));
        }
        // a leftover 2025 task param is an unknown field here: the extension alone decides
        return calls.submit(request, params, null).thenCompose(row -> {
            if (envelope.declaresTasks()) {
                return done(shapes.task2026(row).put("resultType", "task"));
            }
            return hold(request, new InputRound(row.id(), Set.of()));
        });
    }

    /**
     * Holds a plain call until its task ends (the CallToolResult) or asks for input this client has not answered
     * yet ({@code input_required} with those requests and a state to send back with the answers).
     */
    private CompletableFuture<ObjectNode> hold(FrontRequest request, InputRound round) {
        return watcher.until(request, round.taskId(), row -> row.status().isTerminal()
                || !unanswered(row, round).isEmpty()).thenApply(row -> {
                    if (row.status().isTerminal()) {
                        return Front2025.callResult(row, false);
                    }
                    ObjectNode result = FrontJson.object().put("resultType", "input_required");
                    ObjectNode requests = result.putObject("inputRequests");
                    JsonNode stored = FrontJson.parseOrNull(row.state().inputRequiredJson());
                    unanswered(row, round).forEach(key -> requests.set(key, stored.get(key)));
                    return result.put("requestState", round.encode());
                });
    }

    /** The input requests of the row this client can answer and has not answered in this call. */
    private static Set<String> unanswered(TaskRecord row, InputRound round) {
        Set<String> keys = new LinkedHashSet<>();
        if (row.status() == TaskStatus.INPUT_REQUIRED && InputRequests.answerable(row)) {
            for (InputRequests.InputRequest request : InputRequests.of(row)) {
                if (!round.answered().contains(request.key())) {
                    keys.add(request.key());
                }
            }
        }
        return keys;
    }

    private ObjectNode update(FrontRequest request, ObjectNode params) {
        TaskId id = Params.taskId(params);
        find(request, id);
        ObjectNode responses = Params.optionalObject(params, "inputResponses", "params.inputResponses");
        if (responses == null) {
            throw FrontError.invalidParams("params.inputResponses is missing");
        }
        answer(request, id, responses);
        return FrontJson.object();
    }

    /**
     * Stores the answers for the worker to deliver; returns the keys taken. Unknown, superseded and already
     * answered keys are ignored, as the extension says; an answer that could never be delivered is an error.
     */
    private Set<String> answer(FrontRequest request, TaskId id, ObjectNode responses) {
        Set<String> taken = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> entry : responses.properties()) {
            String key = entry.getKey();
            if (!entry.getValue().isObject()) {
                throw FrontError.invalidParams("params.inputResponses." + key + " must be an object (the bare"
                        + " result of the input request)");
            }
            try {
                AnswerOutcome outcome = tasks.answerFor(request.principal(), id, key,
                        FrontJson.write(entry.getValue()));
                if (outcome == AnswerOutcome.NOT_FOUND) {
                    throw FrontError.taskNotFound();
                }
                taken.add(key);
            } catch (AnswerRejectedException e) {
                if (e.reason() == AnswerRejectedException.Reason.GENERATION_CANNOT_ANSWER
                        || e.reason() == AnswerRejectedException.Reason.INVALID_RESPONSE) {
                    throw FrontError.invalidParams("params.inputResponses." + key + ": " + e.getMessage());
                }
            }
        }
        return taken;
    }

    /** An acknowledgement only: cancellation is cooperative, and the outcome is read with tasks/get. */
    private ObjectNode cancel(FrontRequest request, ObjectNode params) {
        if (tasks.requestCancelFor(request.principal(), Params.taskId(params)) == CancelRequestOutcome.NOT_FOUND) {
            throw FrontError.taskNotFound();
        }
        return FrontJson.object();
    }

    private TaskRecord find(FrontRequest request, TaskId id) {
        return tasks.findFor(request.principal(), id).orElseThrow(FrontError::taskNotFound);
    }

    /** Every 2026 result says what it is and who answered. */
    private ObjectNode stamp(ObjectNode result) {
        if (!result.has("resultType")) {
            result.put("resultType", "complete");
        }
        Front2025.meta(result).set(Envelope2026.SERVER_INFO, shapes.serverInfo());
        return result;
    }

    /**
     * The cache hints of a cacheable result (SEP-2549; not task fields): the SDK v2 client requires them. The tool
     * list follows the upstream servers' and the principal is per request, so a client may neither reuse nor share it.
     */
    private static ObjectNode notCached(ObjectNode result) {
        return result.put("ttlMs", 0).put("cacheScope", "private");
    }

    private static CompletableFuture<ObjectNode> done(ObjectNode result) {
        return CompletableFuture.completedFuture(result);
    }
}
