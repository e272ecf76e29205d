package dev.mcptasks.core.retention;

/**
 * What one purge pass deleted.
 *
 * @param tasks finished tasks past their status retention or their ttl
 * @param auditRecords audit records past the log's retention
 */
public record PurgeResult(long tasks, long auditRecords) {
    public static final PurgeResult NOTHING = new PurgeResult(0, 0);
}
