package dev.mcptasks.mcp;

/** The server broke the MCP protocol: an unsupported version, a malformed result or error object. */
public final class McpProtocolException extends McpException {

    public McpProtocolException(String serverName, String message) {
        super(serverName, "server '" + serverName + "': " + message, null);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
