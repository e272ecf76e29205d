package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.mcptasks.domain.ProtocolGeneration;

/**
 * How a connection to a server was set up: the protocol version in use (which decides the generation), the server's
 * capabilities and identity. For the 2025-11-25 generation this is the outcome of {@code initialize}; for the
 * 2026-07-28 generation the result of {@code server/discover}, or nothing at all when the generation was pinned
 * (then {@link #capabilitiesKnown()} is false: a pin skips the probe).
 *
 * @param protocolVersion the version both sides speak (one of {@link ProtocolVersions#SUPPORTED}, or
 *     {@link ProtocolGeneration#VERSION_2026})
 * @param capabilities the server's capabilities
 * @param serverInfo the server's {@code serverInfo} object (missing node when absent)
 * @param raw the whole {@code InitializeResult} or {@code DiscoverResult}, unknown fields included (missing node
 *     when nothing was asked)
 */
public record McpHandshake(String protocolVersion, ServerCapabilities capabilities, JsonNode serverInfo,
        JsonNode raw) {
    static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

    /** The generation spoken on this connection. */
    public ProtocolGeneration generation() {
        return ProtocolGeneration.ofProtocolVersion(protocolVersion);
    }

    /** False for a pinned 2026-07-28 connection, on which no {@code server/discover} was sent. */
    public boolean capabilitiesKnown() {
        return !raw.isMissingNode();
    }

    /**
     * Whether task-augmented tool calls may be sent on this session (2025-11-25), or whether the server may answer
     * tool calls with tasks (2026-07-28: it advertised the tasks extension, or was pinned without asking).
     */
    public boolean supportsTaskToolCalls() {
        if (generation() == ProtocolGeneration.TASKS_EXTENSION_2026_07_28) {
            return !capabilitiesKnown() || capabilities.tasksExtension();
        }
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

    /** A {@code DiscoverResult}: the server speaks the 2026-07-28 generation. */
    static McpHandshake discovered(String serverName, JsonNode result) {
        if (result == null || !result.isObject()) {
            throw new McpProtocolException(serverName, "the server/discover result is not a JSON object");
        }
        JsonNode info = result.path("_meta").path(SERVER_INFO_KEY);
        return new McpHandshake(ProtocolGeneration.VERSION_2026,
                ServerCapabilities.from(result.get("capabilities")),
                info.isMissingNode() ? result.path("serverInfo") : info, result);
    }

    /**
     * A 2025-11-25 session spoken in again without its creator's {@code initialize} answer at hand: the version it
     * negotiated, capabilities and identity unknown.
     */
    static McpHandshake resumedUnasked(String protocolVersion) {
        return new McpHandshake(protocolVersion, ServerCapabilities.from(null), MissingNode.getInstance(),
                MissingNode.getInstance());
    }

    /** A 2026-07-28 connection set up without asking anything (pinned, or the probe met a 2026 refusal). */
    static McpHandshake unasked2026() {
        return new McpHandshake(ProtocolGeneration.VERSION_2026, ServerCapabilities.from(null),
                MissingNode.getInstance(), MissingNode.getInstance());
    }
}
