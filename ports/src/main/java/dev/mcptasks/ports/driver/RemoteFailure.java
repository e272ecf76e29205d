package dev.mcptasks.ports.driver;

/** How the runtime must treat a failed remote call (runtime-behaviour.md section 5). */
public enum RemoteFailure {
    /** Transport error, timeout, server error, {@code isError} from an ordinary status tool: release and back off. */
    TRANSIENT,
    /**
     * The request was sent and got no answer within its bound (a direct call's {@code directCallTimeoutSeconds}):
     * it was cancelled, and may have run. A submit follows the server's submit policy at once: {@code atMostOnce}
     * ends the task {@code failed}/{@code timeout} with the message (which names the bound), {@code atLeastOnce}
     * sends it again after backoff. Every other phase treats it as {@link #TRANSIENT}.
     */
    TIMED_OUT,
    /** Nothing reached the server (could not connect or start the process): a submit may be retried safely. */
    NOT_SENT,
    /** The server does not know the task ({@code -32602} not found, ttl elapsed): terminal remote_task_lost. */
    TASK_LOST,
    /** The server refused the request (JSON-RPC error on create, tool not task-capable): terminal for a submit. */
    REFUSED,
    /** The answer was malformed: terminal protocol_error for a poll; a cancel is retried. */
    PROTOCOL,
    /**
     * The server cannot do this operation at all (a native server without the {@code tasks.cancel} capability):
     * nothing was sent, and retrying cannot help. A cancel stops and the task is tracked to its real end.
     */
    UNSUPPORTED,
    /**
     * The caller's {@link SendPermit} refused the next request of an operation (its lease lapsed): the rest of the
     * operation was not sent. The runtime gives the claim up as an ownership loss and writes nothing.
     */
    PERMIT_REFUSED,
    /**
     * The server wants credentials mcp-tasks cannot obtain on its own (login needed, refresh refused, token revoked,
     * scope retries used up): nothing was executed, and retrying cannot help. Terminal {@code auth_required}.
     */
    AUTH_REQUIRED
}
