package dev.mcptasks.mcp;

/**
 * Why one MCP request failed: the server answered with a JSON-RPC error, the request timed out, the transport
 * failed, or the server broke the protocol. Each request fails with exactly one of these.
 */
public abstract sealed class McpException extends RuntimeException
        permits McpErrorResponse, McpTimeoutException, McpTransportFailure, McpProtocolException {

    private final String serverName;

    McpException(String serverName, String message, Throwable cause) {
        super(message, cause);
        this.serverName = serverName;
    }

    /** The configured server the request went to. */
    public String serverName() {
        return serverName;
    }

    /** Whether trying the same request again later may work. */
    public abstract boolean retryable();
}
