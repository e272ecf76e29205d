package dev.mcptasks.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson mapper of this module and the JSON-RPC envelopes built with it. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {}

    static ObjectNode object() {
        return NODES.objectNode();
    }

    /** Parses text; throws {@link JsonProcessingException} for anything that is not one JSON value. */
    static JsonNode parse(String text) throws JsonProcessingException {
        return MAPPER.readTree(text);
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    static String request(String id, String method, JsonNode params) {
        ObjectNode message = object().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return write(message);
    }

    static String notification(String method, JsonNode params) {
        ObjectNode message = object().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return write(message);
    }

    static String result(JsonNode id, JsonNode result) {
        ObjectNode message = object().put("jsonrpc", "2.0");
        message.set("id", id);
        message.set("result", result);
        return write(message);
    }

    static String error(JsonNode id, int code, String text) {
        ObjectNode message = object().put("jsonrpc", "2.0");
        message.set("id", id);
        message.set("error", object().put("code", code).put("message", text));
        return write(message);
    }
}
