package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;

/**
 * A stored row in each generation's Task shape. Both are read from the same row, so a task created by a client of
 * one generation (on an upstream of either) reads the same in the other. The retention reported
 * ({@code ttl}/{@code ttlMs}) is the task's stored ttl, counted from its creation, after which the workers purge the
 * task once it has finished; null when the task asked for none and its server has no default (then only the
 * retention of its final status ends it).
 */
final class TaskShapes {
    static final String CANCEL_REQUESTED = "Cancellation requested; the task ends once the upstream server"
            + " confirms it";
    static final String INPUT_2025 = "The tool waits for input, which a 2025-11-25 client cannot give through"
            + " mcp-tasks: answer it from a 2026-07-28 client (tasks/update) or cancel the task";

    /** The {@code _meta} key of a task's liveness (see {@link #liveness}). */
    static final String LIVENESS = "dev.mcptasks/liveness";

    private final FrontSettings settings;

    TaskShapes(FrontSettings settings) {
        this.settings = settings;
    }

    /** The 2025-11-25 {@code Task}. */
    ObjectNode task2025(TaskRecord row) {
        ObjectNode task = common(row, status2025(row));
        String message = message(row);
        if (row.status() == TaskStatus.INPUT_REQUIRED) {
            message = message == null ? INPUT_2025 : message + " (" + INPUT_2025 + ")";
        }
        putMessage(task, message);
        putTtl(task, "ttl", row);
        task.put("pollInterval", settings.clientPollIntervalMs());
        return task;
    }

    private static void putTtl(ObjectNode task, String field, TaskRecord row) {
        Long ttl = row.definition().requestedTtlMs();
        if (ttl == null) {
            task.putNull(field);
        } else {
            task.put(field, ttl.longValue());
        }
    }

    /** The 2026-07-28 {@code Task} (the fields of a CreateTaskResult and of a DetailedTask). */
    ObjectNode task2026(TaskRecord row) {
        ObjectNode task = common(row, status2026(row));
        putMessage(task, message(row));
        putTtl(task, "ttlMs", row);
        task.put("pollIntervalMs", settings.clientPollIntervalMs());
        return task;
    }

    /**
     * The 2026-07-28 {@code DetailedTask}: the Task with the result (completed, including a tool's error result),
     * the error (failed) or the input requests (input_required) inline.
     */
    ObjectNode detailedTask(TaskRecord row) {
        ObjectNode task = task2026(row);
        StoredOutcome outcome = StoredOutcome.of(row);
        if (outcome instanceof StoredOutcome.Succeeded succeeded) {
            task.set("result", succeeded.result().put("resultType", "complete"));
        } else if (outcome instanceof StoredOutcome.ToolError toolError) {
            task.set("result", toolError.result().put("resultType", "complete"));
        } else if (outcome instanceof StoredOutcome.Failed) {
            FrontError error = outcome.asError(row.id().value());
            ObjectNode body = task.putObject("error").put("code", error.code()).put("message", error.getMessage());
            body.set("data", error.data());
        } else if (row.status() == TaskStatus.INPUT_REQUIRED) {
            JsonNode requests = FrontJson.parseOrNull(row.state().inputRequiredJson());
            task.set("inputRequests", requests != null && requests.isObject() ? requests : FrontJson.object());
        }
        return task.put("resultType", "complete");
    }

    private static ObjectNode common(TaskRecord row, String status) {
        ObjectNode task = FrontJson.object().put("taskId", row.id().value()).put("status", status);
        task.put("createdAt", FrontJson.timestamp(row.definition().createdAt()));
        task.put("lastUpdatedAt", FrontJson.timestamp(row.state().updatedAt() != null ? row.state().updatedAt()
                : row.definition().createdAt()));
        if (!row.status().isTerminal()) {
            task.putObject("_meta").set(LIVENESS, liveness(row));
        }
        return task;
    }

    /**
     * Whether a task that is not over is stuck or long: until when the lease of the worker driving it now runs
     * (renewed every third of its length while that worker lives), and when the upstream last answered a poll of it.
     * Null where nothing is known yet (no worker holds it this moment; never polled). Worker names stay internal.
     */
    private static ObjectNode liveness(TaskRecord row) {
        ObjectNode liveness = FrontJson.object();
        TaskRecord.Lease lease = row.lease();
        if (lease != null && lease.isHeld() && lease.expiresAt() != null) {
            liveness.put("leaseExpiresAt", FrontJson.timestamp(lease.expiresAt()));
        } else {
            liveness.putNull("leaseExpiresAt");
        }
        if (row.control() != null && row.control().lastPolledAt() != null) {
            liveness.put("upstreamLastAnsweredAt", FrontJson.timestamp(row.control().lastPolledAt()));
        } else {
            liveness.putNull("upstreamLastAnsweredAt");
        }
        return liveness;
    }

    /** A row not yet sent upstream is already a task the client may poll: it is working. */
    private static String status2025(TaskRecord row) {
        return row.status() == TaskStatus.PENDING ? "working" : row.status().wireName();
    }

    /** 2026-07-28 reports a tool's error result as completed (with the result); failed means no result. */
    private static String status2026(TaskRecord row) {
        if (row.status() == TaskStatus.FAILED && row.state().resultJson() != null) {
            return "completed";
        }
        return status2025(row);
    }

    private static String message(TaskRecord row) {
        TaskRecord.State state = row.state();
        if (!state.status().isTerminal() && row.control() != null && row.control().cancelRequestedAt() != null) {
            return CANCEL_REQUESTED;
        }
        if (state.status() == TaskStatus.FAILED && state.statusMessage() == null) {
            return PrincipalText.summary(state.error());
        }
        if (state.status() == TaskStatus.INPUT_REQUIRED && state.statusMessage() == null) {
            return InputRequests.of(row).stream().map(InputRequests.InputRequest::message)
                    .filter(text -> text != null).findFirst().orElse(null);
        }
        return state.statusMessage();
    }

    private static void putMessage(ObjectNode task, String message) {
        if (message != null) {
            task.put("statusMessage", message);
        }
    }

    ObjectNode serverInfo() {
        return FrontJson.object().put("name", settings.serverName()).put("version", settings.serverVersion());
    }
}
