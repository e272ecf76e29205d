package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpTransportException;

/**
 * The transport could not deliver the request or its answer (process exited, session lost, HTTP error, broken
 * stream). {@link #sent()} is false only when the server certainly never saw the request.
 */
public final class McpTransportFailure extends McpException {
    private final String method;
    private final boolean sent;

    public McpTransportFailure(String serverName, String method, McpTransportException cause, boolean sent) {
        super(serverName, "server '" + serverName + "': " + method + " failed in the transport ("
                + cause.kind() + "): " + cause.getMessage(), cause);
        this.method = method;
        this.sent = sent && cause.sent();
    }

    public String method() {
        return method;
    }

    /** The transport failure underneath. */
    public McpTransportException transportCause() {
        return (McpTransportException) getCause();
    }

    /** Whether the server may have received the request. */
    public boolean sent() {
        return sent;
    }

    @Override
    public boolean retryable() {
        return transportCause().retryable();
    }
}
