package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * 2026-07-28 {@code subscriptions/listen} with the tasks extension's {@code notifications:{taskIds:[…]}}: a
 * long-lived request whose own stream carries {@code notifications/tasks} for the tasks it names, driven by the
 * store's changes through the {@link TaskWatcher} (the commit of this process's worker, another process's commit as
 * the store tells of it, the watcher's safety-net read), never by a poll per task or per subscription.
 *
 * <ul>
 *   <li>First, {@code notifications/subscriptions/acknowledged} with the subset agreed: the task ids that are the
 *       caller's (another principal's id, or one that does not exist, is left out, as {@code tasks/get} would say
 *       it does not exist), at most {@link #MAX_TASK_IDS}. The core filter's other members (list changes, resource
 *       subscriptions) are not served by the gateway and are left out.</li>
 *   <li>Then, for each agreed task, its DetailedTask as {@code tasks/get} would answer it now (so a change between
 *       the client's last poll and the subscription is not missed), and again each time what a client sees of it
 *       changes (status, status message, input requests), until it ends.</li>
 *   <li>Once every agreed task has ended (at once when none was agreed), the subscription ends gracefully: the
 *       empty {@code subscriptions/listen} result. It also ends so when the gateway stops. The client ends it by
 *       closing the stream (HTTP) or with {@code notifications/cancelled} (stdio).</li>
 * </ul>
 * Every message of the subscription carries {@code _meta["io.modelcontextprotocol/subscriptionId"]}, the
 * request's id.
 */
final class TaskListens {
    static final String METHOD = "subscriptions/listen";
    static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
    static final String NOTIFICATION = "notifications/tasks";
    static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
    /** Task ids agreed per subscription; the ones after are left out of the acknowledgement. */
    static final int MAX_TASK_IDS = 100;

    private final TaskService tasks;
    private final TaskWatcher watcher;
    private final TaskShapes shapes;
    private final Set<Listen> open = ConcurrentHashMap.newKeySet();

    TaskListens(TaskService tasks, TaskWatcher watcher, TaskShapes shapes) {
        this.tasks = tasks;
        this.watcher = watcher;
        this.shapes = shapes;
    }

    /** Opens the subscription; completes with its graceful end (the empty result), or fails for bad params. */
    CompletableFuture<ObjectNode> listen(FrontRequest request, ObjectNode params, Envelope2026 envelope) {
        JsonNode filter = params.get("notifications");
        if (filter == null || filter.isNull()) {
            throw FrontError.invalidParams("params.notifications is missing: name the notifications to listen to,"
                    + " e.g. {\"taskIds\":[\"…\"]}");
        }
        if (!filter.isObject()) {
            throw FrontError.invalidParams("params.notifications must be an object");
        }
        List<String> requested = taskIds(filter.get("taskIds"));
        if (requested != null) {
            envelope.requireTasks(METHOD + " with notifications.taskIds");
        }
        if (!request.stream().available()) {
            throw new FrontError(FrontError.INVALID_REQUEST, "Invalid Request: " + METHOD + " needs a stream"
                    + " (over HTTP, accept text/event-stream)");
        }
        JsonNode subscriptionId = request.message().get("id");
        List<TaskRecord> agreed = new ArrayList<>();
        for (String value : requested == null ? List.<String>of() : requested) {
            if (agreed.size() == MAX_TASK_IDS) {
                break;
            }
            found(request.principal(), value).ifPresent(agreed::add);
        }
        Listen listen = new Listen(request, subscriptionId);
        ObjectNode acknowledged = FrontJson.object();
        ObjectNode notifications = acknowledged.putObject("notifications");
        if (requested != null) {
            ArrayNode ids = notifications.putArray("taskIds");
            agreed.forEach(row -> ids.add(row.id().value()));
        }
        listen.send(ACKNOWLEDGED, acknowledged);
        open.add(listen);
        listen.end.whenComplete((result, error) -> open.remove(listen));
        List<CompletableFuture<?>> following = new ArrayList<>();
        for (TaskRecord row : agreed) {
            String[] shown = {shown(row)};
            listen.send(NOTIFICATION, task(row));
            if (row.status().isTerminal()) {
                continue;
            }
            // the row is read again at the watcher's next pass (a change since the read above is not lost), then
            // at each change; the wait belongs to the request, so the client leaving (its request cancelled) ends it
            following.add(watcher.until(request, row.id(), seen -> {
                String now = shown(seen);
                if (!now.equals(shown[0])) {
                    shown[0] = now;
                    listen.send(NOTIFICATION, task(seen));
                }
                return seen.status().isTerminal();
            }).exceptionally(error -> null)); // a task purged meanwhile has nothing more to tell
        }
        CompletableFuture.allOf(following.toArray(CompletableFuture[]::new))
                .whenComplete((done, error) -> listen.close());
        return listen.end;
    }

    /** The gateway stops: every subscription ends gracefully, with its empty result. */
    void closeAll() {
        List.copyOf(open).forEach(Listen::close);
    }

    int open() {
        return open.size();
    }

    /** {@code notifications.taskIds}: null when absent; each a string, duplicates dropped, in order. */
    private static List<String> taskIds(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isArray()) {
            throw FrontError.invalidParams("params.notifications.taskIds must be an array of task ids");
        }
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode id : value) {
            if (!id.isTextual()) {
                throw FrontError.invalidParams("params.notifications.taskIds must be an array of strings");
            }
            ids.add(id.textValue());
        }
        return List.copyOf(ids);
    }

    private Optional<TaskRecord> found(String principal, String value) {
        TaskId id;
        try {
            id = TaskId.of(value);
        } catch (DomainException e) {
            return Optional.empty();
        }
        return tasks.findFor(principal, id);
    }

    /** The DetailedTask, as {@code tasks/get} answers it (without the result's own {@code resultType}). */
    private ObjectNode task(TaskRecord row) {
        ObjectNode task = shapes.detailedTask(row);
        task.remove("resultType");
        return task;
    }

    /** What a client sees change: the status, the message and the input requests. */
    private String shown(TaskRecord row) {
        ObjectNode task = shapes.detailedTask(row);
        return task.path("status").asText() + "\n" + task.path("statusMessage").asText("") + "\n"
                + task.path("inputRequests");
    }

    /** One open subscription. */
    private final class Listen {
        private final RequestStream stream;
        private final JsonNode subscriptionId;
        private final CompletableFuture<ObjectNode> end = new CompletableFuture<>();

        Listen(FrontRequest request, JsonNode subscriptionId) {
            this.stream = request.stream();
            this.subscriptionId = subscriptionId;
        }

        /** Sends one notification of the subscription, tagged with its id; nothing once it has ended. */
        synchronized void send(String method, ObjectNode params) {
            if (end.isDone()) {
                return;
            }
            Front2025.meta(params).set(SUBSCRIPTION_ID, subscriptionId);
            stream.send(FrontJson.notification(method, params));
        }

        /** The graceful end: the empty result, which names the subscription. */
        synchronized void close() {
            ObjectNode result = FrontJson.object().put("resultType", "complete");
            Front2025.meta(result).set(SUBSCRIPTION_ID, subscriptionId);
            end.complete(result);
        }
    }
}
