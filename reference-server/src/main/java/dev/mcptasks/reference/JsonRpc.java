package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builders for JSON-RPC 2.0 messages. */
final class JsonRpc {
  static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

  private JsonRpc() {
  }

  static ObjectNode result(JsonNode id, JsonNode result) {
    ObjectNode message = JsonNodeFactory.instance.objectNode();
    message.put("jsonrpc", "2.0");
    message.set("id", id);
    message.set("result", result);
    return message;
  }

  static ObjectNode error(JsonNode id, int code, String text) {
    return error(id, code, text, null);
  }

  /** An error response; {@code data} null leaves the {@code data} member out. */
  static ObjectNode error(JsonNode id, int code, String text, JsonNode data) {
    ObjectNode message = JsonNodeFactory.instance.objectNode();
    message.put("jsonrpc", "2.0");
    message.set("id", id == null ? JsonNodeFactory.instance.nullNode() : id);
    ObjectNode error = message.putObject("error").put("code", code).put("message", text);
    if (data != null) {
      error.set("data", data);
    }
    return message;
  }

  static ObjectNode notification(String method, JsonNode params) {
    ObjectNode message = JsonNodeFactory.instance.objectNode();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    message.set("params", params);
    return message;
  }

  /** The string parameter {@code name}; -32602 naming it when absent or not a string. */
  static String requiredText(JsonNode params, String name) {
    JsonNode node = params.path(name);
    if (!node.isTextual()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          "Missing or non-string parameter: " + name);
    }
    return node.textValue();
  }
}
