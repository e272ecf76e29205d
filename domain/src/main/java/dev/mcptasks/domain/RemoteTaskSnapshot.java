package dev.mcptasks.domain;

import java.time.Duration;
import java.util.Objects;

/**
 * What a driver observed of a remote task: as reported, before normalization.
 *
 * @param remoteTaskId the server's task id
 * @param status the remote status (never {@code pending})
 * @param statusMessage human-readable status text, or null
 * @param resultJson the tool result as JSON text (for {@code completed}/{@code failed}), or null
 * @param error an error description, or null
 * @param errorCode one of {@link ErrorCodes}, or null
 * @param pollAfter the server's suggested poll interval, or null
 * @param inputRequiredJson what the server asks for while {@code input_required}, or null
 * @param remoteTtlMs the retention the server granted, or null when unlimited or unknown
 */
public record RemoteTaskSnapshot(
        String remoteTaskId,
        TaskStatus status,
        String statusMessage,
        String resultJson,
        String error,
        String errorCode,
        Duration pollAfter,
        String inputRequiredJson,
        Long remoteTtlMs) {

    public RemoteTaskSnapshot {
        Objects.requireNonNull(status, "status");
        if (status == TaskStatus.PENDING) {
            throw new DomainException("a remote task cannot be pending");
        }
    }

    public static RemoteTaskSnapshot of(String remoteTaskId, TaskStatus status) {
        return new RemoteTaskSnapshot(remoteTaskId, status, null, null, null, null, null, null, null);
    }

    public RemoteTaskSnapshot withResult(String json) {
        return new RemoteTaskSnapshot(remoteTaskId, status, statusMessage, json, error, errorCode, pollAfter,
                inputRequiredJson, remoteTtlMs);
    }

    public RemoteTaskSnapshot withStatusMessage(String message) {
        return new RemoteTaskSnapshot(remoteTaskId, status, message, resultJson, error, errorCode, pollAfter,
                inputRequiredJson, remoteTtlMs);
    }

    public RemoteTaskSnapshot withError(String code, String message) {
        return new RemoteTaskSnapshot(remoteTaskId, status, statusMessage, resultJson, message, code, pollAfter,
                inputRequiredJson, remoteTtlMs);
    }

    public RemoteTaskSnapshot withPollAfter(Duration hint) {
        return new RemoteTaskSnapshot(remoteTaskId, status, statusMessage, resultJson, error, errorCode, hint,
                inputRequiredJson, remoteTtlMs);
    }
}
