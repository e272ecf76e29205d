package dev.mcptasks.domain;

import java.util.Objects;

/**
 * A snapshot in the form it is stored: bounded, strict JSON, never truncated JSON.
 *
 * @param status the status to store
 * @param statusMessage capped status text, or null
 * @param resultJson strict JSON of the result (a preview envelope when truncated), or null
 * @param resultTruncated whether {@code resultJson} is the preview envelope of a larger result
 * @param error capped error text, or null
 * @param errorCode one of {@link ErrorCodes}, or null
 * @param inputRequiredJson strict JSON, or null
 */
public record StoredSnapshot(
        TaskStatus status,
        String statusMessage,
        String resultJson,
        boolean resultTruncated,
        String error,
        String errorCode,
        String inputRequiredJson) {

    public StoredSnapshot {
        Objects.requireNonNull(status, "status");
    }

    /** A terminal failure decided locally (lost task, protocol error, refused submission, unknown outcome). */
    public static StoredSnapshot failed(String errorCode, String error) {
        return new StoredSnapshot(TaskStatus.FAILED, null, null, false,
                SnapshotNormalizer.cap(error, SnapshotNormalizer.MAX_ERROR_CHARS), errorCode, null);
    }

    public static StoredSnapshot cancelled(String message) {
        return new StoredSnapshot(TaskStatus.CANCELLED,
                SnapshotNormalizer.cap(message, SnapshotNormalizer.MAX_ERROR_CHARS), null, false, null, null, null);
    }
}
