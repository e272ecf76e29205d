package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The 2026-07-28 era at the HTTP edge: which POSTs are stateless 2026 requests, and whether their SEP-2243 headers
 * ({@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name}) agree with the body. A disagreement is
 * answered here with -32020 (HTTP 400) before the dispatcher sees the request, as the SDKs' validation ladder does.
 */
final class Headers2026 {
    static final String VERSION_2026 = "2026-07-28";
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
    static final String METHOD = "Mcp-Method";
    static final String NAME = "Mcp-Name";
    static final String ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion";

    private static final String SENTINEL_PREFIX = "=?base64?";
    private static final String SENTINEL_SUFFIX = "?=";

    /** The body field that {@code Mcp-Name} mirrors, per method (SEP-2243; tasks/* from SEP-2663). */
    private static final Map<String, String> NAME_SOURCE = Map.of(
            "tools/call", "name",
            "prompts/get", "name",
            "resources/read", "uri",
            "tasks/get", "taskId",
            "tasks/update", "taskId",
            "tasks/cancel", "taskId");

    private Headers2026() {}

    /**
     * True for a 2026 message: its body carries the per-request envelope, or its {@code MCP-Protocol-Version} header
     * names 2026-07-28 (then a missing envelope is an error, never a silent fall back to the 2025 path).
     */
    static boolean is2026(HttpHeaders headers, JsonNode message) {
        return envelopeVersion(message) != null || VERSION_2026.equals(headers.get(PROTOCOL_VERSION));
    }

    /** The error response for a 2026 message whose headers and body disagree, or empty when they agree. */
    static Optional<ObjectNode> check(HttpHeaders headers, JsonNode message, boolean request) {
        JsonNode id = JsonRpc.idOf(message);
        String method = message.path("method").asText();
        String bodyVersion = envelopeVersion(message);
        String headerVersion = headers.get(PROTOCOL_VERSION);
        if (bodyVersion == null) {
            ObjectNode data = JsonNodeFactory.instance.objectNode();
            data.putObject("envelope").putArray("missing").add("_meta");
            return Optional.of(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid params: the " + PROTOCOL_VERSION
                    + " header names " + headerVersion + " but the request has no per-request envelope (_meta)", data));
        }
        if (headerVersion != null && !headerVersion.equals(bodyVersion)) {
            return mismatch(id, PROTOCOL_VERSION, headerVersion, bodyVersion);
        }
        String headerMethod = headers.get(METHOD);
        if (headerMethod != null && !headerMethod.equals(method)) {
            return mismatch(id, METHOD, headerMethod, method);
        }
        if (request && headerVersion == null) {
            return mismatch(id, PROTOCOL_VERSION, null, bodyVersion);
        }
        if (request && headerMethod == null) {
            return mismatch(id, METHOD, null, method);
        }
        String field = NAME_SOURCE.get(method);
        JsonNode bodyName = field == null ? null : message.path("params").get(field);
        if (bodyName == null || !bodyName.isTextual()) {
            return Optional.empty();
        }
        String headerName = headers.get(NAME);
        if (headerName == null) {
            return request ? mismatch(id, NAME, null, bodyName.asText()) : Optional.empty();
        }
        Optional<String> decoded = decode(headerName);
        if (decoded.isEmpty()) {
            return Optional.of(JsonRpc.error(id, JsonRpc.HEADER_MISMATCH, "Bad Request: the " + NAME
                    + " header is not valid base64-encoded UTF-8: " + headerName, mismatchData(NAME, headerName,
                    bodyName.asText())));
        }
        return decoded.get().equals(bodyName.asText()) ? Optional.empty()
                : mismatch(id, NAME, headerName, bodyName.asText());
    }

    /** The HTTP status of a 2026 answer: the spec's status for the edge errors, 200 for everything else. */
    static int httpStatus(ObjectNode response) {
        return switch (JsonRpc.errorCode(response)) {
            case JsonRpc.PARSE_ERROR, JsonRpc.INVALID_REQUEST, JsonRpc.HEADER_MISMATCH,
                    JsonRpc.MISSING_CLIENT_CAPABILITY, JsonRpc.UNSUPPORTED_PROTOCOL_VERSION -> 400;
            case JsonRpc.METHOD_NOT_FOUND -> 404;
            default -> 200;
        };
    }

    /** A header value, with the {@code =?base64?…?=} sentinel of a non-ASCII value decoded; empty when malformed. */
    static Optional<String> decode(String value) {
        if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)
                && value.length() >= SENTINEL_PREFIX.length() + SENTINEL_SUFFIX.length())) {
            return Optional.of(value);
        }
        String encoded = value.substring(SENTINEL_PREFIX.length(), value.length() - SENTINEL_SUFFIX.length());
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static String envelopeVersion(JsonNode message) {
        JsonNode version = message.path("params").path("_meta").get(ENVELOPE_VERSION);
        return version != null && version.isTextual() ? version.asText() : null;
    }

    private static Optional<ObjectNode> mismatch(JsonNode id, String header, String headerValue, String bodyValue) {
        String text = headerValue == null
                ? "the body names " + bodyValue + " but the required " + header + " header is absent"
                : "the " + header + " header names " + headerValue + " but the body names " + bodyValue;
        return Optional.of(JsonRpc.error(id, JsonRpc.HEADER_MISMATCH,
                "Bad Request: the request headers and body disagree: " + text,
                mismatchData(header, headerValue, bodyValue)));
    }

    private static ObjectNode mismatchData(String header, String headerValue, String bodyValue) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        ObjectNode mismatch = data.putObject("mismatch");
        mismatch.put("header", header);
        mismatch.put("headerValue", headerValue == null ? "(missing)" : headerValue);
        mismatch.put("body", bodyValue);
        return data;
    }
}
