package dev.mcptasks.mcp;

import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.transport.McpTransportException;

/** Classifies MCP request failures into the runtime's {@link RemoteFailure} kinds (runtime-behaviour.md §5). */
final class RemoteFailures {
    private RemoteFailures() {}

    /**
     * The default classification: transport failures and timeouts are transient (or not-sent when the request
     * certainly never left), a refused authorization auth-required, server errors transient, protocol violations
     * protocol errors.
     */
    static RemoteCallException classify(Throwable error) {
        Throwable cause = RemoteOperation.unwrap(error);
        if (cause instanceof RemoteCallException remote) {
            return remote;
        }
        if (cause instanceof McpTransportFailure transport
                && transport.transportCause().kind() == McpTransportException.Kind.MESSAGE_TOO_LARGE) {
            // asking again brings the same answer over the same cap: fail once, naming the cap and the size
            return new RemoteCallException(RemoteFailure.PROTOCOL, "the answer to " + transport.method()
                    + " is too large: " + transport.transportCause().getMessage(), transport);
        }
        if (cause instanceof McpTransportFailure transport
                && transport.transportCause().kind() == McpTransportException.Kind.AUTH_REQUIRED) {
            // the server refused before acting and no credential can be had without a person: never retried, the
            // message keeps the authorizer's reason (what to run, which server)
            return new RemoteCallException(RemoteFailure.AUTH_REQUIRED, transport.getMessage(), transport);
        }
        if (cause instanceof McpTransportFailure transport) {
            return new RemoteCallException(transport.sent() ? RemoteFailure.TRANSIENT : RemoteFailure.NOT_SENT,
                    transport.getMessage(), transport);
        }
        if (cause instanceof McpTimeoutException || cause instanceof McpErrorResponse) {
            return new RemoteCallException(RemoteFailure.TRANSIENT, cause.getMessage(), cause);
        }
        if (cause instanceof McpProtocolException) {
            return new RemoteCallException(RemoteFailure.PROTOCOL, cause.getMessage(), cause);
        }
        return new RemoteCallException(RemoteFailure.TRANSIENT, "unexpected failure: " + cause, cause);
    }

    /**
     * For the steps before a create request is sent (connect, tool lookup): nothing about the task reached the
     * server, so every transport-level failure is {@link RemoteFailure#NOT_SENT}.
     */
    static RemoteCallException beforeSend(Throwable error) {
        RemoteCallException classified = classify(error);
        return classified.failure() == RemoteFailure.TRANSIENT
                ? new RemoteCallException(RemoteFailure.NOT_SENT, classified.getMessage(), classified.getCause())
                : classified;
    }

    /** Whether the failure is a JSON-RPC error with the given code. */
    static boolean isError(Throwable error, int code) {
        return RemoteOperation.unwrap(error) instanceof McpErrorResponse response && response.code() == code;
    }

    static RemoteCallException refused(String message) {
        return new RemoteCallException(RemoteFailure.REFUSED, message);
    }

    static RemoteCallException protocol(String message) {
        return new RemoteCallException(RemoteFailure.PROTOCOL, message);
    }

    static RemoteCallException lost(String message, Throwable cause) {
        return new RemoteCallException(RemoteFailure.TASK_LOST, message, cause);
    }
}
