package dev.mcptasks.ports.transport;

import java.util.Objects;

/** A typed transport failure. */
public class McpTransportException extends RuntimeException {

    /** What failed. */
    public enum Kind {
        /** Could not start the process or connect: nothing was sent. */
        CONNECT_FAILED(true, false),
        /** The server no longer knows the session (HTTP 404, server-everything's 400 "No valid session"). */
        SESSION_LOST(true, false),
        /** An HTTP status the transport cannot handle (5xx retryable, 4xx not). */
        HTTP_STATUS(true, true),
        /** A message over the configured bound. */
        MESSAGE_TOO_LARGE(false, true),
        /** Framing or stream syntax was broken (not JSON-RPC semantics: that is the session's). */
        MALFORMED(true, true),
        /** A response stream broke and could not be resumed. */
        STREAM_BROKEN(true, true),
        /** The subprocess exited. */
        PROCESS_EXITED(true, true),
        /** The transport was closed locally. */
        CLOSED(true, false),
        /** Connect or read timeout. */
        TIMEOUT(true, true),
        /**
         * The server refused the request for want of authorization (HTTP 401, or 403 insufficient_scope) and no
         * credential could be had (see {@code ports.auth.HttpAuthorizer}): it did not act on it, and retrying cannot
         * help until someone logs in or fixes the configuration.
         */
        AUTH_REQUIRED(false, false);

        private final boolean retryable;
        private final boolean maySent;

        Kind(boolean retryable, boolean maySent) {
            this.retryable = retryable;
            this.maySent = maySent;
        }
    }

    private final Kind kind;
    private final int httpStatus;
    private final boolean sent;

    public McpTransportException(Kind kind, String message) {
        this(kind, message, 0, null);
    }

    public McpTransportException(Kind kind, String message, Throwable cause) {
        this(kind, message, 0, cause);
    }

    public McpTransportException(Kind kind, String message, int httpStatus, Throwable cause) {
        this(kind, message, httpStatus, cause, Objects.requireNonNull(kind, "kind").maySent);
    }

    private McpTransportException(Kind kind, String message, int httpStatus, Throwable cause, boolean sent) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.httpStatus = httpStatus;
        this.sent = sent;
    }

    /**
     * The same failure, for a message that had already been written when it struck (a request whose response was
     * pending when the session was lost or the transport closed): the server may have received it.
     */
    public McpTransportException afterWriting() {
        return new McpTransportException(kind, getMessage(), httpStatus, this, true);
    }

    public static McpTransportException httpStatus(int status, String message) {
        return new McpTransportException(Kind.HTTP_STATUS, message, status, null);
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status for {@link Kind#HTTP_STATUS}, else 0. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Whether trying again later may work. A 4xx other than a lost session is not retryable. */
    public boolean retryable() {
        if (kind == Kind.HTTP_STATUS) {
            return httpStatus >= 500 || httpStatus == 429 || httpStatus == 408;
        }
        return kind.retryable;
    }

    /** Whether the server may have received the message (false only when it certainly did not). */
    public boolean sent() {
        return sent;
    }
}
