package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The official MCP conformance suite's server fixtures ({@code --conformance-fixtures}): its tools
 * ({@link ConformanceTools}), resources ({@link ConformanceResources}), prompts and completion
 * ({@link ConformancePrompts}) and the log level ({@link ConformanceLogging}), and the capabilities they need.
 */
final class ConformanceFixtures {
  private static final Set<String> METHODS = Set.of("resources/list", "resources/templates/list", "resources/read",
      "resources/subscribe", "resources/unsubscribe", "prompts/list", "prompts/get", "completion/complete",
      "logging/setLevel");

  private final ConformanceLogging logging = new ConformanceLogging();
  private final ConformanceResources resources = new ConformanceResources();
  private final ConformanceTools tools;

  ConformanceFixtures(ScheduledExecutorService scheduler) {
    this.tools = new ConformanceTools(scheduler, logging);
  }

  static boolean handles(String method) {
    return METHODS.contains(method);
  }

  static boolean isTool(String name) {
    return ConformanceTools.NAMES.contains(name);
  }

  /** Resources (subscribable), prompts, completions and logging. */
  static void advertise(ObjectNode capabilities) {
    capabilities.putObject("resources").put("subscribe", true);
    capabilities.putObject("prompts");
    capabilities.putObject("completions");
    capabilities.putObject("logging");
  }

  /** What a 2026-07-28 client (no session) is offered: resources, prompts, completions. */
  static void advertiseStateless(ObjectNode capabilities) {
    capabilities.putObject("resources");
    capabilities.putObject("prompts");
    capabilities.putObject("completions");
  }

  JsonNode handle(ClientSession session, String method, JsonNode params) {
    return switch (method) {
      case "resources/list" -> ConformanceResources.list();
      case "resources/templates/list" -> ConformanceResources.templates();
      case "resources/read" -> ConformanceResources.read(params);
      case "resources/subscribe" -> resources.subscribe(session, params, true);
      case "resources/unsubscribe" -> resources.subscribe(session, params, false);
      case "prompts/list" -> ConformancePrompts.list();
      case "prompts/get" -> ConformancePrompts.get(params);
      case "completion/complete" -> ConformancePrompts.complete(params);
      case "logging/setLevel" -> logging.setLevel(session, params);
      default -> throw new JsonRpcException(JsonRpcException.METHOD_NOT_FOUND, "Method not found: " + method);
    };
  }

  CompletableFuture<JsonNode> callTool(ClientSession session, String name, JsonNode progressToken) {
    return tools.call(session, name, progressToken);
  }
}
