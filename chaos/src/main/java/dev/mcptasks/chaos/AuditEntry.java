package dev.mcptasks.chaos;

/**
 * One accepted UPDATE of a task row, recorded by the harness's trigger (not by the product's migrations): the claim
 * columns before and after, the status before and after, when, and (PostgreSQL) the {@code application_name} of the
 * connection that wrote it, which is the writing worker's tag.
 *
 * @param writer the writing connection's application name, or null where the database cannot tell (SQLite)
 * @param controlChanged whether the update changed anything a control claim guards (status, result, remote id,
 *     claim columns, due time); a notification-outbox write changes none of them
 */
public record AuditEntry(long seq, String taskId, long atMs, String writer, String oldStatus, String newStatus,
        String oldOwner, String newOwner, String oldToken, String newToken, String oldPhase, String newPhase,
        Long oldExpiresMs, Long newExpiresMs, boolean controlChanged) {

    /** A new claim: a fresh token was set (over no lease, a released one, or an expired one). */
    public boolean isClaim() {
        return newToken != null && !newToken.equals(oldToken);
    }
}
