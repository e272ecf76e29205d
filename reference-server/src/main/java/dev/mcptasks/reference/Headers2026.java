package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * The 2026-07-28 Streamable HTTP header rule (SEP-2243): {@code MCP-Protocol-Version} equals the envelope version,
 * {@code Mcp-Method} the method, and {@code Mcp-Name} the tool name of a {@code tools/call} or the task id of a
 * {@code tasks/get|update|cancel}. A missing or different header is -32020 with HTTP 400, named in the message.
 */
final class Headers2026 {
  static final String METHOD = "Mcp-Method";
  static final String NAME = "Mcp-Name";

  private static final Set<String> TASK_METHODS = Set.of("tasks/get", "tasks/update", "tasks/cancel");

  private Headers2026() {
  }

  static void verify(HttpHeaders headers, String method, JsonNode params, Envelope envelope) {
    String version = envelope.protocolVersion();
    check(headers.get(HttpTransportHeaders.PROTOCOL_VERSION), version,
        "the body envelope names protocol version " + version, HttpTransportHeaders.PROTOCOL_VERSION);
    check(headers.get(METHOD), method, "the body names method " + method, METHOD);
    String nameField = "tools/call".equals(method) ? "name" : TASK_METHODS.contains(method) ? "taskId" : null;
    if (nameField != null && params.path(nameField).isTextual()) {
      String value = params.get(nameField).textValue();
      check(decode(headers.get(NAME)), value, "the body carries params." + nameField + "=\"" + value + "\"", NAME);
    }
  }

  private static void check(String header, String expected, String body, String headerName) {
    if (expected.equals(header)) {
      return;
    }
    String detail = header == null
        ? body + " but the required " + headerName + " header is absent"
        : body + " but the " + headerName + " header names \"" + header + "\"";
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.putObject("mismatch").put("header", header == null ? "(missing)" : header).put("body", detail);
    throw new JsonRpcException(JsonRpcException.HEADER_MISMATCH,
        "Bad Request: the request headers and body disagree: " + detail, data, 400);
  }

  /** A header value, with the {@code =?base64?…?=} sentinel for non-ASCII values decoded. */
  static String decode(String header) {
    if (header != null && header.startsWith("=?base64?") && header.endsWith("?=") && header.length() >= 11) {
      try {
        return new String(Base64.getDecoder().decode(header.substring(9, header.length() - 2)),
            StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return header;
      }
    }
    return header;
  }
}
