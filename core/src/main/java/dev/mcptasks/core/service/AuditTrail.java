package dev.mcptasks.core.service;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import java.util.Objects;

/**
 * Who the task service acts for, and where their actions are recorded: every action comes in through one channel per
 * process (the gateway's, the command line's, the admin listener's); an action on behalf of a principal (a gateway
 * token's) is recorded under that principal, any other under the process's operator (the OS user of the CLI).
 *
 * @param operator the principal of actions made on no principal's behalf
 */
public record AuditTrail(AuditLog log, AuditChannel channel, String operator) {
    /** Records nothing (embeddings without an audit log). */
    public static final AuditTrail NONE = new AuditTrail(AuditLog.NONE, AuditChannel.CLI, "nobody");

    public AuditTrail {
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(operator, "operator");
        if (operator.isBlank()) {
            throw new IllegalArgumentException("operator must not be blank");
        }
    }

    /** Records {@code action} by {@code principal}, or by the operator when {@code principal} is null. */
    public void record(String principal, AuditAction action, TaskId taskId, String detail) {
        log.append(new AuditEntry(principal == null ? operator : principal, channel, action, taskId, detail));
    }
}
