package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code logging/setLevel} per session, and the log messages of the fixture tools ({@code notifications/message}),
 * sent only at or above the session's level (before any setLevel: {@code info}).
 */
final class ConformanceLogging {
  static final List<String> LEVELS = List.of("debug", "info", "notice", "warning", "error", "critical", "alert",
      "emergency");
  private final Map<String, String> levels = new ConcurrentHashMap<>();

  JsonNode setLevel(ClientSession session, JsonNode params) {
    String level = params.path("level").asText("");
    if (!LEVELS.contains(level)) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Invalid log level: " + level);
    }
    levels.put(session.id(), level);
    return JsonNodeFactory.instance.objectNode();
  }

  void log(ClientSession session, String level, String text) {
    if (LEVELS.indexOf(level) < LEVELS.indexOf(levels.getOrDefault(session.id(), "info"))) {
      return;
    }
    ObjectNode params = JsonNodeFactory.instance.objectNode().put("level", level).put("logger", "conformance");
    params.put("data", text);
    session.notify(JsonRpc.notification("notifications/message", params));
  }
}
