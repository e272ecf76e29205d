package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Terse JSON construction for tests. */
final class Json {
  private Json() {
  }

  /** An object from alternating keys and values (strings, numbers, booleans or JsonNodes). */
  static ObjectNode obj(Object... keysAndValues) {
    ObjectNode node = StdioTestClient.MAPPER.createObjectNode();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      node.set((String) keysAndValues[i], StdioTestClient.MAPPER.valueToTree(keysAndValues[i + 1]));
    }
    return node;
  }

  /** {@code tools/call} params; {@code ttl} null means a plain call, otherwise a task with that ttl (0 = none). */
  static ObjectNode call(String tool, ObjectNode arguments, Long ttl) {
    ObjectNode params = obj("name", tool, "arguments", arguments);
    if (ttl != null) {
      params.set("task", ttl == 0 ? obj() : obj("ttl", ttl));
    }
    return params;
  }

  static ObjectNode taskId(String id) {
    return obj("taskId", id);
  }

  /** The 2026-07-28 envelope ({@code _meta}), declaring the tasks extension when {@code tasks}. */
  static ObjectNode envelope(boolean tasks) {
    ObjectNode capabilities = obj();
    if (tasks) {
      capabilities.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
    }
    return obj("io.modelcontextprotocol/protocolVersion", "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities", capabilities,
        "io.modelcontextprotocol/clientInfo", obj("name", "test", "version", "1"));
  }

  /** A copy of {@code params} (null: none) carrying the 2026 envelope. */
  static ObjectNode v2026(ObjectNode params, boolean tasks) {
    ObjectNode copy = params == null ? obj() : params.deepCopy();
    copy.set("_meta", envelope(tasks));
    return copy;
  }
}
