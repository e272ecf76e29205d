package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The official MCP conformance suite's server fixture tools ({@code --conformance-fixtures}), each as the suite's
 * server scenarios describe it. Log messages and progress go where the session's notifications go (stdout on
 * stdio, the GET stream over HTTP). Not here: the tools that ask the client for sampling or elicitation (this server
 * sends no requests to its clients).
 */
final class ConformanceTools {
  static final List<String> NAMES = List.of("test_simple_text", "test_image_content", "test_audio_content",
      "test_embedded_resource", "test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress",
      "test_error_handling", "test_reconnection", "json_schema_2020_12_tool");
  private static final long STEP_MS = 50;

  private final ScheduledExecutorService scheduler;
  private final ConformanceLogging logging;

  ConformanceTools(ScheduledExecutorService scheduler, ConformanceLogging logging) {
    this.scheduler = scheduler;
    this.logging = logging;
  }

  /** The tools as {@code tools/list} shows them. */
  static ArrayNode definitions() {
    ArrayNode tools = JsonNodeFactory.instance.arrayNode();
    for (String name : NAMES) {
      ObjectNode tool = tools.addObject().put("name", name).put("description", "Conformance fixture " + name);
      if ("json_schema_2020_12_tool".equals(name)) {
        tool.put("description", "Tool with JSON Schema 2020-12 features");
        tool.set("inputSchema", FixtureJson.object("{'$schema':'https://json-schema.org/draft/2020-12/schema',"
            + "'type':'object','$defs':{'address':{'type':'object','properties':{'street':{'type':'string'},"
            + "'city':{'type':'string'}}}},'properties':{'name':{'type':'string'},"
            + "'address':{'$ref':'#/$defs/address'}},'additionalProperties':false}"));
      } else {
        tool.set("inputSchema", FixtureJson.object("{'type':'object','properties':{}}"));
      }
    }
    return tools;
  }

  CompletableFuture<JsonNode> call(ClientSession session, String name, JsonNode progressToken) {
    return switch (name) {
      case "test_simple_text" -> done(ToolResults.text("This is a simple text response for testing."));
      case "test_image_content" -> done(FixtureJson.object(
          "{'content':[{'type':'image','data':'$PNG','mimeType':'image/png'}]}"));
      case "test_audio_content" -> done(FixtureJson.object(
          "{'content':[{'type':'audio','data':'$WAV','mimeType':'audio/wav'}]}"));
      case "test_embedded_resource" -> done(FixtureJson.object("{'content':[{'type':'resource','resource':"
          + "{'uri':'test://embedded-resource','mimeType':'text/plain',"
          + "'text':'This is an embedded resource content.'}}]}"));
      case "test_multiple_content_types" -> done(FixtureJson.object("{'content':["
          + "{'type':'text','text':'Multiple content types test:'},"
          + "{'type':'image','data':'$PNG','mimeType':'image/png'},"
          + "{'type':'resource','resource':{'uri':'test://mixed-content-resource','mimeType':'application/json',"
          + "'text':'{\\'test\\':\\'data\\',\\'value\\':123}'}}]}"));
      case "test_error_handling" -> done(ToolResults.error("This tool intentionally returns an error for testing"));
      case "test_tool_with_logging" -> steps(List.of("Tool execution started", "Tool processing data",
          "Tool execution completed"), (step, text) -> logging.log(session, "info", text),
          "Tool with logging executed successfully");
      case "test_tool_with_progress" -> steps(List.of("0", "50", "100"), (step, progress) -> {
        if (progressToken != null && progressToken.isValueNode() && !progressToken.isNull()) {
          ObjectNode params = JsonNodeFactory.instance.objectNode();
          params.set("progressToken", progressToken);
          params.put("progress", Integer.parseInt(progress)).put("total", 100);
          session.notify(JsonRpc.notification("notifications/progress", params));
        }
      }, "Tool with progress executed successfully");
      case "test_reconnection" -> later(ToolResults.text("Reconnection test completed successfully"), STEP_MS);
      case "json_schema_2020_12_tool" -> done(ToolResults.text("JSON Schema 2020-12 tool called"));
      default -> throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Tool " + name + " not found");
    };
  }

  /** Runs each step {@link #STEP_MS} apart (the first after one step), then answers {@code result}. */
  private CompletableFuture<JsonNode> steps(List<String> steps, Step step, String result) {
    for (int i = 0; i < steps.size(); i++) {
      int at = i;
      scheduler.schedule(() -> step.run(at, steps.get(at)), STEP_MS * (i + 1), TimeUnit.MILLISECONDS);
    }
    return later(ToolResults.text(result), STEP_MS * (steps.size() + 1));
  }

  private CompletableFuture<JsonNode> later(JsonNode result, long delayMs) {
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    scheduler.schedule(() -> answer.complete(result), delayMs, TimeUnit.MILLISECONDS);
    return answer;
  }

  @FunctionalInterface
  private interface Step {
    void run(int index, String value);
  }

  private static CompletableFuture<JsonNode> done(JsonNode result) {
    return CompletableFuture.completedFuture(result);
  }
}
