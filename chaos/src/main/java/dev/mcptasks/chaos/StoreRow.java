package dev.mcptasks.chaos;

/**
 * A task row as the store holds it at the end of a run: only what the checks compare with the server.
 *
 * @param key the chaos key from the task's arguments
 * @param result the stored result JSON, or null
 * @param cancelRequestedAtMs when the user's cancel request was stored (epoch ms), or null
 */
public record StoreRow(String id, String key, String status, String errorCode, String remoteTaskId, String result,
        boolean cancelRequested, Long cancelRequestedAtMs) {

    public StoreRow(String id, String key, String status, String errorCode, String remoteTaskId, String result,
            boolean cancelRequested) {
        this(id, key, status, errorCode, remoteTaskId, result, cancelRequested, null);
    }

    public boolean terminal() {
        return "completed".equals(status) || "failed".equals(status) || "cancelled".equals(status);
    }
}
