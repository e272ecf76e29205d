package dev.mcptasks.ports.audit;

import dev.mcptasks.domain.TaskId;
import java.util.Objects;

/**
 * One action to record; the store stamps it with its own clock.
 *
 * @param taskId the task acted on, or null for an action on no one task (a purge)
 * @param detail a short free text (the outcome, a count), or null
 */
public record AuditEntry(String principal, AuditChannel channel, AuditAction action, TaskId taskId,
        String detail) {
    public AuditEntry {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(action, "action");
        if (principal.isBlank()) {
            throw new IllegalArgumentException("principal must not be blank");
        }
    }
}
