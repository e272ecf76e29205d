package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conformance suite's fixture resources: {@code test://static-text}, {@code test://static-binary},
 * {@code test://watched-resource} (subscribable) and the template {@code test://template/{id}/data}; subscriptions
 * are kept per session. An unknown URI is -32002 {@code Resource not found}, as the spec says.
 */
final class ConformanceResources {
  static final int RESOURCE_NOT_FOUND = -32002;
  private static final Pattern TEMPLATE = Pattern.compile("test://template/([^/]+)/data");

  private final Map<String, Set<String>> subscriptions = new ConcurrentHashMap<>();

  static JsonNode list() {
    return FixtureJson.object("{'resources':["
        + "{'uri':'test://static-text','name':'static-text','description':'A static text resource',"
        + "'mimeType':'text/plain'},"
        + "{'uri':'test://static-binary','name':'static-binary','description':'A static binary resource',"
        + "'mimeType':'image/png'},"
        + "{'uri':'test://watched-resource','name':'watched-resource','description':'A resource to subscribe to',"
        + "'mimeType':'text/plain'}]}");
  }

  static JsonNode templates() {
    return FixtureJson.object("{'resourceTemplates':[{'uriTemplate':'test://template/{id}/data',"
        + "'name':'template-data','description':'Data for an id','mimeType':'application/json'}]}");
  }

  static JsonNode read(JsonNode params) {
    String uri = JsonRpc.requiredText(params, "uri");
    ObjectNode content = JsonNodeFactory.instance.objectNode().put("uri", uri);
    Matcher template = TEMPLATE.matcher(uri);
    switch (uri) {
      case "test://static-text" -> content.put("mimeType", "text/plain")
          .put("text", "This is the content of the static text resource.");
      case "test://static-binary" -> content.put("mimeType", "image/png").put("blob", FixtureJson.PNG);
      case "test://watched-resource" -> content.put("mimeType", "text/plain").put("text", "Watched resource");
      default -> {
        if (!template.matches()) {
          throw new JsonRpcException(RESOURCE_NOT_FOUND, "Resource not found", JsonNodeFactory.instance.objectNode()
              .put("uri", uri), 200);
        }
        String id = template.group(1);
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("id", id).put("templateTest", true)
            .put("data", "Data for ID: " + id);
        content.put("mimeType", "application/json").put("text", data.toString());
      }
    }
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.putArray("contents").add(content);
    return result;
  }

  JsonNode subscribe(ClientSession session, JsonNode params, boolean subscribe) {
    String uri = JsonRpc.requiredText(params, "uri");
    Set<String> mine = subscriptions.computeIfAbsent(session.id(), key -> ConcurrentHashMap.newKeySet());
    if (subscribe) {
      mine.add(uri);
    } else {
      mine.remove(uri);
    }
    return JsonNodeFactory.instance.objectNode();
  }
}
