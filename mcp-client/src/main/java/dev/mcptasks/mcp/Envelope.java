package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ProtocolGeneration;

/**
 * The per-request framing of the 2026-07-28 generation: there is no handshake, so every request carries the protocol
 * version, the client's capabilities and its identity in {@code params._meta}. The capabilities declare the tasks
 * extension (without it a server must not answer with a task) and form elicitation (input requests are relayed to
 * the user through the store).
 */
final class Envelope {
    static final String VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    static final String CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
    static final String CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
    static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

    private final JsonNode clientInfo;

    Envelope(JsonNode clientInfo) {
        this.clientInfo = clientInfo;
    }

    static ObjectNode clientCapabilities() {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("extensions").putObject(TASKS_EXTENSION);
        capabilities.putObject("elicitation").putObject("form");
        return capabilities;
    }

    /** A copy of {@code params} (null means none) with the envelope merged into its {@code _meta}. */
    ObjectNode wrap(JsonNode params, String protocolVersion) {
        ObjectNode framed = params != null && params.isObject() ? ((ObjectNode) params).deepCopy() : Json.object();
        JsonNode existing = framed.get("_meta");
        ObjectNode meta = existing != null && existing.isObject() ? (ObjectNode) existing : Json.object();
        meta.put(VERSION_KEY, protocolVersion);
        meta.set(CAPABILITIES_KEY, clientCapabilities());
        meta.set(CLIENT_INFO_KEY, clientInfo.deepCopy());
        framed.set("_meta", meta);
        return framed;
    }

    ObjectNode wrap(JsonNode params) {
        return wrap(params, ProtocolGeneration.VERSION_2026);
    }
}
