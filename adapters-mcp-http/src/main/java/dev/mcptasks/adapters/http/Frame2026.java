package dev.mcptasks.adapters.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * What the 2026-07-28 revision puts in HTTP headers, read from the outgoing request's own envelope
 * ({@code params._meta["io.modelcontextprotocol/protocolVersion"]}), so the transport port needs no generation
 * switch: a request without the envelope is sent as before (2025-11-25). The headers repeat the body, and a server
 * answers a disagreement with -32020: {@code MCP-Protocol-Version} (the envelope's version), {@code Mcp-Method}, and
 * {@code Mcp-Name} (the tool or prompt name, the resource uri, or the task id of {@code tasks/get|update|cancel}).
 *
 * @param protocolVersion the envelope's version
 * @param method the request's method
 * @param name the routed name, or null when the method has none
 * @param id the request's JSON-RPC id (an error body without one is about this request)
 */
record Frame2026(String protocolVersion, String method, String name, JsonNode id) {
    static final String VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    static final String METHOD_HEADER = "Mcp-Method";
    static final String NAME_HEADER = "Mcp-Name";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The frame of a 2026-07-28 request, or null for anything else (2025-11-25 requests, notifications, answers). */
    static Frame2026 of(String message) {
        return of(parse(message));
    }

    /** An outgoing message parsed once for what the headers repeat of it; null when it is not JSON. */
    static JsonNode parse(String message) {
        try {
            return JSON.readTree(message);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** {@link #of(String)} of a message {@link #parse parsed} already. */
    static Frame2026 of(JsonNode parsed) {
        if (parsed == null || !parsed.path("method").isTextual() || !parsed.hasNonNull("id")) {
            return null;
        }
        JsonNode version = parsed.path("params").path("_meta").path(VERSION_KEY);
        if (!version.isTextual()) {
            return null;
        }
        String method = parsed.get("method").textValue();
        JsonNode params = parsed.path("params");
        JsonNode name = switch (method) {
            case "tools/call", "prompts/get" -> params.path("name");
            case "resources/read" -> params.path("uri");
            case "tasks/get", "tasks/update", "tasks/cancel" -> params.path("taskId");
            default -> null;
        };
        return new Frame2026(version.textValue(), method, name != null && name.isTextual() ? name.textValue()
                : null, parsed.get("id"));
    }

    void applyTo(HttpHeaders headers) {
        headers.set(SessionHeaders.PROTOCOL_VERSION, headerValue(protocolVersion));
        headers.set(METHOD_HEADER, headerValue(method));
        if (name != null) {
            headers.set(NAME_HEADER, headerValue(name));
        }
    }

    /**
     * A header value as sent: plain when it is printable ASCII without surrounding spaces, else the
     * {@code =?base64?…?=} sentinel around the UTF-8 bytes in base64.
     */
    static String headerValue(String value) {
        boolean plain = !value.isEmpty() && value.charAt(0) != ' ' && value.charAt(value.length() - 1) != ' ';
        for (int i = 0; plain && i < value.length(); i++) {
            char c = value.charAt(i);
            plain = c >= 0x20 && c < 0x7f;
        }
        return plain ? value
                : "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    /**
     * A 4xx body that is a JSON-RPC error answer, as a message for the listener (its id set to this request's when
     * the server left it out or null), or null when the body is anything else.
     */
    String errorAnswer(String body) {
        JsonNode parsed;
        try {
            parsed = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
        if (parsed == null || !parsed.isObject() || !parsed.path("error").isObject()
                || !parsed.path("error").path("code").canConvertToExactIntegral() || parsed.has("result")) {
            return null;
        }
        ObjectNode answer = (ObjectNode) parsed;
        if (!answer.hasNonNull("id")) {
            answer.set("id", id);
        } else if (!answer.get("id").equals(id)) {
            return null;
        }
        return answer.toString();
    }
}
