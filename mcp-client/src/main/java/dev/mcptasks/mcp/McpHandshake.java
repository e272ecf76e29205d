package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The outcome of a successful {@code initialize}: the negotiated version, the server's capabilities and identity.
 *
 * @param protocolVersion the version both sides speak (one of {@link ProtocolVersions#SUPPORTED})
 * @param capabilities the server's capabilities
 * @param serverInfo the server's {@code serverInfo} object (missing node when absent)
 * @param raw the whole {@code InitializeResult}, unknown fields included
 */
public record McpHandshake(String protocolVersion, ServerCapabilities capabilities, JsonNode serverInfo,
        JsonNode raw) {

    /** Whether task-augmented tool calls may be sent on this session. */
    public boolean supportsTaskToolCalls() {
        return ProtocolVersions.atLeast(protocolVersion, ProtocolVersions.TASKS) && capabilities.taskToolCalls();
    }

    static McpHandshake parse(String serverName, JsonNode result) {
        if (result == null || !result.isObject()) {
            throw new McpProtocolException(serverName, "the initialize result is not a JSON object");
        }
        JsonNode version = result.get("protocolVersion");
        if (version == null || !version.isTextual()) {
            throw new McpProtocolException(serverName, "the initialize result has no protocolVersion");
        }
        if (!ProtocolVersions.isSupported(version.textValue())) {
            throw new McpProtocolException(serverName, "the server negotiated protocol version '"
                    + version.textValue() + "'; this client supports " + ProtocolVersions.SUPPORTED);
        }
        return new McpHandshake(version.textValue(), ServerCapabilities.from(result.get("capabilities")),
                result.path("serverInfo"), result);
    }
}
