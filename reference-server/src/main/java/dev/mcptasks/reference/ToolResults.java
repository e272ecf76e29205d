package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builders for {@code CallToolResult} objects. */
final class ToolResults {
  private ToolResults() {
  }

  static ObjectNode text(String text) {
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.putArray("content").addObject().put("type", "text").put("text", text);
    return result;
  }

  static ObjectNode error(String text) {
    return text(text).put("isError", true);
  }

  /** A result whose text content is the JSON of {@code structured}, as structured-output tools should send. */
  static ObjectNode structured(JsonNode structured) {
    ObjectNode result = text(structured.toString());
    result.set("structuredContent", structured);
    return result;
  }

  static ObjectNode structuredError(JsonNode structured) {
    return structured(structured).put("isError", true);
  }
}
