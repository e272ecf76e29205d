package dev.mcptasks.ports.audit;

import dev.mcptasks.domain.TaskId;

/**
 * A page of the audit log, newest first.
 *
 * @param taskId only actions on this task, or null for all
 * @param principal only actions of this principal, or null for all
 */
public record AuditQuery(TaskId taskId, String principal, int limit) {
    public static final int MAX_LIMIT = 10_000;

    public AuditQuery {
        if (limit <= 0 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
    }
}
