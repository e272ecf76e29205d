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
 * independent (stdio and HTTP both call {@link #handle}). A request is answered on the 2025-11-25 path or on the
 * 2026-07-28 path as {@link ReferenceServerOptions#generation()} says: in dual mode per request, by the envelope.
 */
final class McpDispatcher {
  static final String LATEST_VERSION = "2025-11-25";
  static final List<String> SUPPORTED_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
  static final String SERVER_NAME = "mcp-tasks-reference";
  static final String SERVER_VERSION = "0.1.0";

  private static final Logger LOG = LoggerFactory.getLogger(McpDispatcher.class);

  /** A response message and the HTTP status it travels with (200 but for the 2026 transport-level errors). */
  record Answer(ObjectNode message, int httpStatus) {}

  /** The transport's check of a 2026 request against its envelope (the HTTP headers); stdio has none. */
  @FunctionalInterface
  interface HeaderCheck {
    HeaderCheck NONE = (method, params, envelope) -> { };

    void verify(String method, JsonNode params, Envelope envelope);
  }

  private final ReferenceServerOptions options;
  private final ToolCatalog catalog;
  private final ReceivedCancellations cancellations;
  private final ToolCalls toolCalls;
  private final TaskMethods taskMethods;
  private final ToolCalls2026 toolCalls2026;
  private final TaskMethods2026 taskMethods2026;
  /** The conformance suite's fixtures, or null when not served. */
  private final ConformanceFixtures fixtures;

  McpDispatcher(ReferenceServerOptions options, ToolCatalog catalog, ReceivedCancellations cancellations,
      ToolCalls toolCalls, ConformanceFixtures fixtures, TaskMethods taskMethods, ToolCalls2026 toolCalls2026,
      TaskMethods2026 taskMethods2026) {
    this.options = options;
    this.fixtures = fixtures;
    this.catalog = catalog;
    this.cancellations = cancellations;
    this.toolCalls = toolCalls;
    this.taskMethods = taskMethods;
    this.toolCalls2026 = toolCalls2026;
    this.taskMethods2026 = taskMethods2026;
  }

  /** Whether {@code message} is a request (has a method and an id), the only kind that gets a response. */
  static boolean isRequest(JsonNode message) {
    return message.path("method").isTextual() && message.hasNonNull("id");
  }

  /**
   * Whether {@code message} takes the 2026-07-28 path: always in pure 2026 mode, never in 2025 mode, and in dual mode
   * when it carries the envelope or is {@code server/discover} (a method 2025 does not have).
   */
  boolean is2026(JsonNode message) {
    return switch (options.generation()) {
      case V2025_11_25 -> false;
      case V2026_07_28 -> true;
      case DUAL -> Envelope.present(message.path("params"))
          || "server/discover".equals(message.path("method").asText());
    };
  }

  /**
   * Handles {@code message} on the path {@link #is2026} picks; the future yields the response for a request and
   * null for a notification or a response. It may never complete when the task's behaviour says a control call hangs.
   */
  CompletableFuture<Answer> handle(ClientSession session, JsonNode message) {
    return handle(session, message, is2026(message), HeaderCheck.NONE);
  }

  /** Handles {@code message} on the 2026 path, checking it with {@code headers} once its envelope is read. */
  CompletableFuture<Answer> handle2026(ClientSession session, JsonNode message, HeaderCheck headers) {
    return handle(session, message, true, headers);
  }

  private CompletableFuture<Answer> handle(ClientSession session, JsonNode message, boolean is2026,
      HeaderCheck headers) {
    if (!message.isObject() || !"2.0".equals(message.path("jsonrpc").asText())) {
      return CompletableFuture.completedFuture(new Answer(JsonRpc.error(message.path("id").isMissingNode() ? null
          : message.get("id"), JsonRpcException.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"), 400));
    }
    if (!message.path("method").isTextual()) {
      return CompletableFuture.completedFuture(null); // a response to a server request; we send none
    }
    String method = message.get("method").textValue();
    if (!isRequest(message)) {
      LOG.debug("notification {} from session {}", method, session.id());
      if ("notifications/cancelled".equals(method)) {
        cancellations.record(session, message.path("params"));
      }
      return CompletableFuture.completedFuture(null);
    }
    JsonNode id = message.get("id");
    JsonNode params = message.path("params");
    CompletableFuture<JsonNode> outcome;
    try {
      outcome = is2026 ? route2026(session, method, params, headers) : route(session, method, params);
    } catch (RuntimeException e) {
      outcome = CompletableFuture.failedFuture(e);
    }
    return outcome.handle((result, failure) -> failure != null ? toError(id, failure)
        : new Answer(JsonRpc.result(id, is2026 ? decorate(result) : result), 200));
  }

  /**
   * The 2026 path: {@code initialize} is refused with -32022 naming the one version served; every other request must
   * carry a valid envelope (and pass the transport's header check) before it is routed. Methods 2026 removed
   * ({@code tasks/result}, {@code tasks/list}) are unknown: -32601, HTTP 404.
   */
  private CompletableFuture<JsonNode> route2026(ClientSession session, String method, JsonNode params,
      HeaderCheck headers) {
    if ("initialize".equals(method)) {
      throw Envelope.unsupportedVersion(params.path("protocolVersion").asText(""));
    }
    Envelope envelope = Envelope.read(params);
    headers.verify(method, params, envelope);
    return switch (method) {
      case "server/discover" -> done(discover());
      case "ping" -> done(JsonNodeFactory.instance.objectNode());
      case "tools/list" -> done(catalog.list2026());
      case "tools/call" -> toolCalls2026.call(session, params, envelope);
      case "tasks/get" -> taskMethods2026.get(session, params, envelope);
      case "tasks/update" -> taskMethods2026.update(session, params, envelope);
      case "tasks/cancel" -> taskMethods2026.cancel(session, params, envelope);
      default -> {
        if (fixtures != null && ConformanceFixtures.handles(method)) {
          yield done(fixtures.handle(session, method, params));
        }
        throw new JsonRpcException(JsonRpcException.METHOD_NOT_FOUND, "Method not found", null, 404);
      }
    };
  }

  /**
   * The observed SDK 2.4.0 shape; never the 2025-11-25 {@code tasks} capability, even in dual mode. With the conformance
   * fixtures also {@code resources}, {@code prompts} and {@code completions} (no session: no subscriptions, no log
   * level).
   */
  private JsonNode discover() {
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.putArray("supportedVersions").add(Envelope.VERSION);
    ObjectNode capabilities = result.putObject("capabilities");
    capabilities.putObject("tools");
    capabilities.putObject("extensions").putObject(Envelope.TASKS_EXTENSION);
    if (fixtures != null) {
      ConformanceFixtures.advertiseStateless(capabilities);
    }
    result.put("resultType", "complete");
    result.put("ttlMs", 0);
    result.put("cacheScope", "private");
    return result;
  }

  /**
   * Every 2026 result is a Result: {@code resultType} ({@code "complete"} unless the method set another) and the
   * server's name in {@code _meta}. Works on a copy: a result may be a record's stored one. A non-object (a scripted
   * malformed answer) is sent as it is.
   */
  private static JsonNode decorate(JsonNode result) {
    if (!(result instanceof ObjectNode object)) {
      return result;
    }
    ObjectNode copy = object.deepCopy();
    if (!copy.has("resultType")) {
      copy.put("resultType", "complete");
    }
    JsonNode meta = copy.path("_meta");
    ObjectNode metaObject = meta.isObject() ? (ObjectNode) meta : copy.putObject("_meta");
    metaObject.putObject(Envelope.SERVER_INFO_KEY).put("name", SERVER_NAME).put("version", SERVER_VERSION);
    return copy;
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
      default -> {
        if (fixtures != null && ConformanceFixtures.handles(method)) {
          yield done(fixtures.handle(session, method, params));
        }
        throw new JsonRpcException(JsonRpcException.METHOD_NOT_FOUND, "Method not found: " + method);
      }
    };
  }

  private JsonNode initialize(ClientSession session, JsonNode params) {
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
    if (fixtures != null) {
      ConformanceFixtures.advertise(capabilities);
    }
    result.putObject("serverInfo").put("name", SERVER_NAME).put("version", SERVER_VERSION);
    return result;
  }

  private static Answer toError(JsonNode id, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    if (cause instanceof JsonRpcException rpc) {
      return new Answer(JsonRpc.error(id, rpc.code(), rpc.getMessage(), rpc.data()), rpc.httpStatus());
    }
    LOG.error("request {} failed", id, cause);
    return new Answer(JsonRpc.error(id, JsonRpcException.INTERNAL_ERROR, "Internal error: " + cause), 500);
  }

  private static CompletableFuture<JsonNode> done(JsonNode result) {
    return CompletableFuture.completedFuture(result);
  }
}
