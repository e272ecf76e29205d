package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;

/**
 * A page of tasks, newest first.
 *
 * @param status only this status, or null for all
 * @param serverName only this server, or null for all
 * @param limit page size (1..1000)
 * @param before only ids before this one (the last id of the previous page), or null for the first page
 * @param principal only tasks of this principal (the gateway's view), or null for all tasks of every principal
 */
public record TaskQuery(TaskStatus status, String serverName, int limit, TaskId before, String principal) {
    public static final int MAX_LIMIT = 1000;

    public TaskQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new DomainException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
    }

    public TaskQuery(TaskStatus status, String serverName, int limit, TaskId before) {
        this(status, serverName, limit, before, null);
    }

    public static TaskQuery all(int limit) {
        return new TaskQuery(null, null, limit, null);
    }
}
