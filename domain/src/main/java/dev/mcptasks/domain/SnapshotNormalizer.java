package dev.mcptasks.domain;

import java.nio.charset.StandardCharsets;

/**
 * Turns what a server reported into what may be stored: errors and messages capped, results validated as strict
 * JSON and bounded in size. A result over the bound is replaced by a small, valid JSON envelope with a text preview
 * and {@code resultTruncated}; truncated JSON is never stored. A result that is not strict JSON (NaN, Infinity,
 * garbage) is a protocol error, reported as such.
 */
public final class SnapshotNormalizer {
    public static final int MAX_ERROR_CHARS = 4_000;
    public static final int PREVIEW_CHARS = 2_000;
    public static final long DEFAULT_MAX_RESULT_BYTES = 8L * 1024 * 1024;

    private final long maxResultBytes;

    public SnapshotNormalizer(long maxResultBytes) {
        if (maxResultBytes < 1024) {
            throw new DomainException("maxResultBytes must be at least 1024, was " + maxResultBytes);
        }
        this.maxResultBytes = maxResultBytes;
    }

    public StoredSnapshot normalize(RemoteTaskSnapshot remote) {
        String inputRequired = remote.inputRequiredJson();
        if (inputRequired != null && !StrictJson.isValid(inputRequired)) {
            return protocolError("the server's input request is not valid JSON");
        }
        String result = remote.resultJson();
        boolean truncated = false;
        if (result != null) {
            try {
                StrictJson.parse(result);
            } catch (DomainException e) {
                return protocolError("the server's result is not valid JSON: " + e.getMessage());
            }
            long bytes = result.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxResultBytes) {
                result = StrictJson.write(StrictJson.object(
                        "truncated", true,
                        "originalBytes", bytes,
                        "preview", preview(result)));
                truncated = true;
            }
        }
        return new StoredSnapshot(remote.status(), cap(remote.statusMessage(), MAX_ERROR_CHARS), result, truncated,
                cap(remote.error(), MAX_ERROR_CHARS), remote.errorCode(), inputRequired);
    }

    private static StoredSnapshot protocolError(String message) {
        return StoredSnapshot.failed(ErrorCodes.PROTOCOL_ERROR, message);
    }

    private static String preview(String text) {
        String head = text.substring(0, Math.min(PREVIEW_CHARS, text.length()));
        // do not split a surrogate pair at the cut
        if (!head.isEmpty() && Character.isHighSurrogate(head.charAt(head.length() - 1))) {
            head = head.substring(0, head.length() - 1);
        }
        return head;
    }

    /** Caps free text at {@code max} characters, marking the cut. */
    public static String cap(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        String marker = "... [truncated]";
        int keep = max - marker.length();
        if (Character.isHighSurrogate(text.charAt(keep - 1))) {
            keep--;
        }
        return text.substring(0, keep) + marker;
    }
}
