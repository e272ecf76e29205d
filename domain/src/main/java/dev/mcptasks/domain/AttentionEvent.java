package dev.mcptasks.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * A notification-worthy change of a task, as canonical JSON with its SHA-256 fingerprint. A new fingerprint bumps
 * the row's {@code event_version}; the same fingerprint again (a repeated poll of the same terminal state) does not.
 */
public record AttentionEvent(String payloadJson, String fingerprint) {

    /** The event for a stored snapshot, if its status deserves attention. */
    public static Optional<AttentionEvent> forSnapshot(TaskId id, String serverName, String toolName,
            StoredSnapshot snapshot) {
        if (!snapshot.status().needsAttention()) {
            return Optional.empty();
        }
        Map<String, Object> payload = StrictJson.object(
                "type", "task.status",
                "taskId", id.value(),
                "server", serverName,
                "tool", toolName,
                "status", snapshot.status().wireName(),
                "statusMessage", snapshot.statusMessage(),
                "errorCode", snapshot.errorCode(),
                "error", snapshot.error(),
                "resultTruncated", snapshot.resultTruncated(),
                "resultSha256", snapshot.resultJson() == null ? null : sha256(snapshot.resultJson()),
                "inputRequired", snapshot.inputRequiredJson() == null ? null
                        : StrictJson.parse(snapshot.inputRequiredJson()));
        return Optional.of(of(payload));
    }

    /**
     * The event raised once per degraded episode: {@code episode} identifies it (the last successful poll time, or
     * the creation time), so more failures in the same episode do not raise it again.
     */
    public static AttentionEvent trackingDegraded(TaskId id, String serverName, TaskStatus status, String episode,
            String lastError) {
        return of(StrictJson.object(
                "type", "task.tracking_degraded",
                "taskId", id.value(),
                "server", serverName,
                "status", status.wireName(),
                "episode", episode,
                "lastError", SnapshotNormalizer.cap(lastError, SnapshotNormalizer.MAX_ERROR_CHARS)));
    }

    private static AttentionEvent of(Map<String, Object> payload) {
        String canonical = StrictJson.write(payload);
        return new AttentionEvent(canonical, sha256(canonical));
    }

    /** Hex SHA-256 of the UTF-8 bytes of {@code text}. */
    public static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
