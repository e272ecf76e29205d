package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Pages of a principal's tasks for {@code tasks/list}, newest first. The cursor is opaque to clients: the last id
 * of the page, encoded. A cursor naming another principal's task only positions the page; the page itself holds
 * the caller's tasks alone.
 */
final class TaskPages {
    static final int PAGE_SIZE = 50;

    record Page(List<TaskRecord> tasks, String nextCursor) {}

    private final TaskService tasks;

    TaskPages(TaskService tasks) {
        this.tasks = tasks;
    }

    Page page(String principal, ObjectNode params) {
        TaskId before = decode(params.get("cursor"));
        // one row more than the page tells whether another page follows without a second query
        List<TaskRecord> rows = tasks.listFor(principal, new TaskQuery(null, null, PAGE_SIZE + 1, before));
        if (rows.size() <= PAGE_SIZE) {
            return new Page(rows, null);
        }
        List<TaskRecord> page = rows.subList(0, PAGE_SIZE);
        return new Page(List.copyOf(page), encode(page.get(PAGE_SIZE - 1).id()));
    }

    private static String encode(TaskId id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id.value().getBytes(StandardCharsets.UTF_8));
    }

    private static TaskId decode(JsonNode cursor) {
        if (cursor == null || cursor.isNull()) {
            return null;
        }
        if (!cursor.isTextual()) {
            throw FrontError.invalidParams("params.cursor must be a string");
        }
        try {
            return TaskId.of(new String(Base64.getUrlDecoder().decode(cursor.textValue()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            // DomainException is one too: an id that cannot be ours is as invalid as bad base64
            throw FrontError.invalidParams("Invalid cursor");
        }
    }
}
