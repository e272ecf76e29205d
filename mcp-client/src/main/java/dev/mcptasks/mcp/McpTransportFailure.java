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
        this(serverName, method, cause, sent && cause.sent(), "");
    }

    private McpTransportFailure(String serverName, String method, McpTransportException cause, boolean sent,
            String note) {
        super(serverName, "server '" + serverName + "': " + method + " failed in the transport ("
                + cause.kind() + "): " + cause.getMessage() + note, cause);
        this.method = method;
        this.sent = sent;
    }

    /**
     * A request still waiting for its answer when the connection ended. The cause tells why the connection ended,
     * not whether this request left: once written it may have reached the server, whatever the cause's kind.
     */
    static McpTransportFailure inFlight(String serverName, String method, McpTransportException cause,
            boolean written) {
        return new McpTransportFailure(serverName, method, cause, written,
                written ? " (the request was in flight: the server may have received it)" : "");
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
