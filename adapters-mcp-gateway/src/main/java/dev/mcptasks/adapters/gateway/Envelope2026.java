package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The 2026-07-28 per-request envelope in {@code params._meta}: the protocol version (which marks a request as
 * 2026-07-28) and the client's capabilities, where the tasks extension is declared request by request.
 */
record Envelope2026(ObjectNode clientCapabilities) {
    static final String VERSION = "2026-07-28";
    static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

    /** Whether the request carries an envelope at all (it names a protocol version in its {@code _meta}). */
    static boolean present(ObjectNode params) {
        return params.path("_meta").has(PROTOCOL_VERSION);
    }

    /** Reads and checks the envelope: -32022 for a version we do not speak, -32602 naming a missing member. */
    static Envelope2026 read(ObjectNode params) {
        JsonNode meta = params.path("_meta");
        JsonNode version = meta.get(PROTOCOL_VERSION);
        if (version == null || version.isNull()) {
            throw FrontError.invalidParams("params._meta." + PROTOCOL_VERSION + " is missing: a request without"
                    + " a session must carry the " + VERSION + " envelope");
        }
        if (!version.isTextual()) {
            throw FrontError.invalidParams("params._meta." + PROTOCOL_VERSION + " must be a string");
        }
        if (!VERSION.equals(version.textValue())) {
            ObjectNode data = FrontJson.object();
            data.putArray("supported").add(VERSION);
            data.put("requested", version.textValue());
            throw new FrontError(FrontError.UNSUPPORTED_VERSION, "Unsupported protocol version: "
                    + version.textValue(), data);
        }
        JsonNode capabilities = meta.get(CLIENT_CAPABILITIES);
        if (capabilities == null || !capabilities.isObject()) {
            throw FrontError.invalidParams("params._meta." + CLIENT_CAPABILITIES
                    + (capabilities == null ? " is missing" : " must be an object"));
        }
        return new Envelope2026((ObjectNode) capabilities);
    }

    /** Whether this request declares the tasks extension (an empty object means support). */
    boolean declaresTasks() {
        return clientCapabilities.path("extensions").path(TASKS_EXTENSION).isObject();
    }

    /** -32021 for a tasks/* request of a client that did not declare the extension on it. */
    void requireTasks(String method) {
        if (!declaresTasks()) {
            ObjectNode data = FrontJson.object();
            data.putObject("requiredCapabilities").putObject("extensions").putObject(TASKS_EXTENSION);
            throw new FrontError(FrontError.MISSING_CAPABILITY, "Missing required client capability: " + method
                    + " needs the " + TASKS_EXTENSION + " extension declared", data);
        }
    }
}
