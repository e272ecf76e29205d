package dev.mcptasks.chaos;

/**
 * A task row as the store holds it at the end of a run: only what the checks compare with the server.
 *
 * @param key the chaos key from the task's arguments
 * @param result the stored result JSON, or null
 * @param cancelRequestedAtMs when the user's cancel request was stored (epoch ms), or null
 * @param protocolVersion the protocol version stored with the task (its generation), or null before any answer
 */
public record StoreRow(String id, String key, String status, String errorCode, String remoteTaskId, String result,
        boolean cancelRequested, Long cancelRequestedAtMs, String protocolVersion) {

    public StoreRow(String id, String key, String status, String errorCode, String remoteTaskId, String result,
            boolean cancelRequested) {
        this(id, key, status, errorCode, remoteTaskId, result, cancelRequested, null);
    }

    public StoreRow(String id, String key, String status, String errorCode, String remoteTaskId, String result,
            boolean cancelRequested, Long cancelRequestedAtMs) {
        this(id, key, status, errorCode, remoteTaskId, result, cancelRequested, cancelRequestedAtMs, null);
    }

    public boolean terminal() {
        return "completed".equals(status) || "failed".equals(status) || "cancelled".equals(status);
    }

    /** Whether the task was created (or finished) on the 2026-07-28 tasks extension. */
    public boolean on2026() {
        return ServerJournal.GENERATION_2026.equals(protocolVersion);
    }
}
