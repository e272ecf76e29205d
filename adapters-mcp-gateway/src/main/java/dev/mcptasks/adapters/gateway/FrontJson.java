package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** JSON and JSON-RPC envelopes for the front door. */
final class FrontJson {
    static final ObjectMapper MAPPER = new ObjectMapper();
    /** ISO 8601 with milliseconds always present, as the SDK servers write it ({@code 2026-12-02T11:29:08.492Z}). */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private FrontJson() {}

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    /** Parses stored or upstream JSON text; null when it is not valid JSON. */
    static JsonNode parseOrNull(String json) {
        if (json == null) {
            return null;
        }
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written: " + e.getOriginalMessage(), e);
        }
    }

    static ObjectNode result(JsonNode id, ObjectNode result) {
        ObjectNode response = object().put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    static ObjectNode error(JsonNode id, FrontError error) {
        ObjectNode response = object().put("jsonrpc", "2.0");
        response.set("id", id);
        ObjectNode body = response.putObject("error").put("code", error.code()).put("message", error.getMessage());
        if (error.data() != null) {
            body.set("data", error.data());
        }
        return response;
    }

    static ObjectNode notification(String method, ObjectNode params) {
        ObjectNode message = object().put("jsonrpc", "2.0").put("method", method);
        message.set("params", params);
        return message;
    }
}
