package dev.mcptasks.domain;

/** The error codes stored in {@code error_code}. */
public final class ErrorCodes {
    public static final String REMOTE_FAILED = "remote_failed";
    public static final String REMOTE_TASK_LOST = "remote_task_lost";
    public static final String PROTOCOL_ERROR = "protocol_error";
    public static final String SUBMIT_OUTCOME_UNKNOWN = "submit_outcome_unknown";
    public static final String SUBMIT_REFUSED = "submit_refused";
    public static final String EXPIRED = "expired";
    public static final String TRANSIENT = "transient";
    /**
     * A direct call (a plain tool) did not finish within its server's {@code directCallTimeoutSeconds}: it was
     * cancelled, may have run, and is not sent again.
     */
    public static final String TIMEOUT = "timeout";
    /** The server wants credentials mcp-tasks cannot obtain without a person (OAuth login, revoked token). */
    public static final String AUTH_REQUIRED = "auth_required";

    private ErrorCodes() {}
}
