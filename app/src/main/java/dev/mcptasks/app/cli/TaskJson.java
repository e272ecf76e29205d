package dev.mcptasks.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * The {@code --json} forms of tasks and workers. Field names and order are a stable interface for scripts: add
 * fields, never rename or remove them. Stored JSON (arguments, result, input request) is embedded as JSON.
 */
final class TaskJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private TaskJson() {}

    static ObjectNode summary(TaskRecord task) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", task.id().value());
        node.put("server", task.definition().serverName());
        node.put("tool", task.definition().toolName());
        node.put("status", task.status().wireName());
        node.put("statusMessage", task.state().statusMessage());
        node.put("errorCode", task.state().errorCode());
        node.put("createdAt", text(task.definition().createdAt()));
        node.put("updatedAt", text(task.state().updatedAt()));
        node.put("completedAt", text(task.state().completedAt()));
        node.put("createdBy", id(task.state().createdBy()));
        node.put("generation", generation(task));
        var requests = node.putArray("inputRequests");
        for (InputRequests.InputRequest request : InputRequests.of(task)) {
            ObjectNode item = requests.addObject();
            item.put("key", request.key());
            item.put("method", request.method());
            item.put("message", request.message());
        }
        var pending = node.putArray("pendingAnswers");
        InputRequests.pendingAnswerKeys(task).forEach(pending::add);
        node.put("answerable", InputRequests.answerable(task));
        return node;
    }

    /**
     * The task's protocol generation, or null while it is not known: a task gets its generation from the protocol
     * version of the request that created it (or asked for input before creating it).
     */
    static String generation(TaskRecord task) {
        if (task.state().protocolVersion() == null && task.state().remoteTaskId() == null) {
            return null;
        }
        return InputRequests.generation(task).wireName();
    }

    static ObjectNode detail(TaskRecord task) {
        TaskRecord.Definition definition = task.definition();
        TaskRecord.State state = task.state();
        TaskRecord.Control control = task.control();
        ObjectNode node = summary(task);
        node.put("driver", definition.driver());
        node.set("arguments", parse(definition.argumentsJson()));
        node.put("requestedTtlMs", definition.requestedTtlMs());
        node.put("remoteTaskId", state.remoteTaskId());
        node.put("remoteTtlMs", state.remoteTtlMs());
        node.put("protocolVersion", state.protocolVersion());
        node.set("result", parse(state.resultJson()));
        node.put("resultTruncated", state.resultTruncated());
        node.put("error", state.error());
        node.set("inputRequired", parse(state.inputRequiredJson()));
        node.set("inputResponses", parse(state.inputResponsesJson()));
        node.put("endpointOwner", id(state.endpointOwner()));
        ObjectNode attempts = node.putObject("attempts");
        attempts.put("submit", control.submitAttemptCount());
        attempts.put("poll", control.pollAttemptCount());
        attempts.put("cancel", control.cancelAttemptCount());
        node.put("consecutiveErrors", control.consecutiveErrorCount());
        node.put("lastPollError", control.lastPollError());
        node.put("lastCancelError", control.lastCancelError());
        node.put("nextControlAt", text(control.nextControlAt()));
        node.put("lastPolledAt", text(control.lastPolledAt()));
        node.put("submitAttemptedAt", text(control.submitAttemptedAt()));
        node.put("cancelRequestedAt", text(control.cancelRequestedAt()));
        TaskRecord.Lease lease = task.lease();
        if (lease.isHeld()) {
            ObjectNode leaseNode = node.putObject("lease");
            leaseNode.put("phase", lease.phase().wireName());
            leaseNode.put("owner", lease.owner().value());
            leaseNode.put("expiresAt", text(lease.expiresAt()));
        } else {
            node.putNull("lease");
        }
        TaskRecord.Outbox outbox = task.outbox();
        ObjectNode notification = node.putObject("notification");
        notification.put("status", outbox.status().wireName());
        notification.put("eventVersion", outbox.eventVersion());
        notification.put("notifiedVersion", outbox.notifiedVersion());
        notification.put("attempts", outbox.attemptCount());
        notification.put("error", outbox.error());
        return node;
    }

    /** A dead letter: the version that died, its sends ({@code attempts}) and counted failures, why and when. */
    static ObjectNode deadLetter(TaskRecord task) {
        TaskRecord.Outbox outbox = task.outbox();
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", task.id().value());
        node.put("server", task.definition().serverName());
        node.put("tool", task.definition().toolName());
        node.put("eventVersion", outbox.dispatchVersion());
        node.put("attempts", outbox.dispatchAttempt());
        node.put("countedFailures", outbox.attemptCount());
        node.put("error", outbox.error());
        node.put("deadLetteredAt", text(outbox.nextAt()));
        return node;
    }

    static ObjectNode worker(WorkerRecord worker, boolean live, List<TaskRecord> claims) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", worker.id().value());
        node.put("host", worker.host());
        node.put("pid", worker.pid());
        node.put("startedAt", text(worker.startedAt()));
        node.put("lastSeenAt", text(worker.lastSeenAt()));
        node.put("state", live ? "live" : "stale");
        var array = node.putArray("claims");
        for (TaskRecord task : claims) {
            ObjectNode claim = array.addObject();
            claim.put("task", task.id().value());
            claim.put("phase", task.lease().phase().wireName());
            claim.put("expiresAt", text(task.lease().expiresAt()));
        }
        return node;
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stored JSON as a tree (stored values are strict JSON by construction), or JSON null when absent. */
    static JsonNode parse(String json) {
        if (json == null) {
            return MAPPER.nullNode();
        }
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return MAPPER.getNodeFactory().textNode(json);
        }
    }

    private static String id(WorkerId worker) {
        return worker == null ? null : worker.value();
    }

    static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
