package dev.mcptasks.adapters.admin;

import dev.mcptasks.core.service.AuditTrail;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditLog;

/**
 * The task service as one admin principal: every action it takes (cancel, answer, replay) is recorded in the audit
 * log under that principal and the {@code admin} channel.
 */
final class OperatorActions {
    private final TaskService tasks;
    private final AuditLog audit;

    OperatorActions(TaskService tasks, AuditLog audit) {
        this.tasks = tasks;
        this.audit = audit;
    }

    TaskService as(AdminPrincipal principal) {
        return tasks.withAudit(trail(principal));
    }

    /** Records an action the service does not record itself (a bulk cancel as a whole). */
    void record(AdminPrincipal principal, String detail) {
        trail(principal).record(null, AuditAction.OPERATOR, null, detail);
    }

    private AuditTrail trail(AdminPrincipal principal) {
        return new AuditTrail(audit, AuditChannel.ADMIN, principal.name());
    }
}
