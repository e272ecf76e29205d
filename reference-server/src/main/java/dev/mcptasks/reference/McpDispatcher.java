package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one incoming JSON-RPC message to its method and turns the outcome into the response message; transport
 * independent (stdio and HTTP both call {@link #handle}).
 */
final class McpDispatcher {
  static final String LATEST_VERSION = "2025-11-25";
  static final List<String> SUPPORTED_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  private static final Logger LOG = LoggerFactory.getLogger(McpDispatcher.class);

  private final ToolCatalog catalog;
  private final ToolCalls toolCalls;
  private final TaskMethods taskMethods;

  McpDispatcher(ToolCatalog catalog, ToolCalls toolCalls, TaskMethods taskMethods) {
    this.catalog = catalog;
    this.toolCalls = toolCalls;
    this.taskMethods = taskMethods;
  }

  /** Whether {@code message} is a request (has a method and an id), the only kind that gets a response. */
  static boolean isRequest(JsonNode message) {
    return message.path("method").isTextual() && message.hasNonNull("id");
  }

  /**
   * Handles {@code message}; the future yields the response for a request and null for a notification or a
   * response. It may never complete when the task's behaviour says a control call hangs.
   */
  CompletableFuture<ObjectNode> handle(ClientSession session, JsonNode message) {
    if (!message.isObject() || !"2.0".equals(message.path("jsonrpc").asText())) {
      return CompletableFuture.completedFuture(JsonRpc.error(message.path("id").isMissingNode() ? null
          : message.get("id"), JsonRpcException.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"));
    }
    if (!message.path("method").isTextual()) {
      return CompletableFuture.completedFuture(null); // a response to a server request; we send none
    }
    String method = message.get("method").textValue();
    if (!isRequest(message)) {
      LOG.debug("notification {} from session {}", method, session.id());
      return CompletableFuture.completedFuture(null);
    }
    JsonNode id = message.get("id");
    JsonNode params = message.path("params");
    CompletableFuture<JsonNode> outcome;
    try {
      outcome = route(session, method, params);
    } catch (RuntimeException e) {
      outcome = CompletableFuture.failedFuture(e);
    }
    return outcome.handle((result, failure) -> failure == null ? JsonRpc.result(id, result) : toError(id, failure));
  }

  private CompletableFuture<JsonNode> route(ClientSession session, String method, JsonNode params) {
    return switch (method) {
      case "initialize" -> done(initialize(session, params));
      case "ping" -> done(JsonNodeFactory.instance.objectNode());
      case "tools/list" -> done(catalog.list());
      case "tools/call" -> toolCalls.call(session, params);
      case "tasks/get" -> taskMethods.get(session, params);
      case "tasks/result" -> taskMethods.result(session, params);
      case "tasks/cancel" -> taskMethods.cancel(session, params);
      case "tasks/list" -> done(taskMethods.list(session, params));
      default -> throw new JsonRpcException(JsonRpcException.METHOD_NOT_FOUND, "Method not found: " + method);
    };
  }

  private static JsonNode initialize(ClientSession session, JsonNode params) {
    String requested = params.path("protocolVersion").asText("");
    String version = SUPPORTED_VERSIONS.contains(requested) ? requested : LATEST_VERSION;
    session.protocolVersion(version);
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.put("protocolVersion", version);
    ObjectNode capabilities = result.putObject("capabilities");
    capabilities.putObject("tools").put("listChanged", true);
    ObjectNode tasks = capabilities.putObject("tasks");
    tasks.putObject("list");
    tasks.putObject("cancel");
    tasks.putObject("requests").putObject("tools").putObject("call");
    result.putObject("serverInfo").put("name", "mcp-tasks-reference").put("version", "0.1.0");
    return result;
  }

  private static ObjectNode toError(JsonNode id, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    if (cause instanceof JsonRpcException rpc) {
      return JsonRpc.error(id, rpc.code(), rpc.getMessage());
    }
    LOG.error("request {} failed", id, cause);
    return JsonRpc.error(id, JsonRpcException.INTERNAL_ERROR, "Internal error: " + cause);
  }

  private static CompletableFuture<JsonNode> done(JsonNode result) {
    return CompletableFuture.completedFuture(result);
  }
}
