package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The tools this server offers, as listed by {@code tools/list}, and each tool's {@code execution.taskSupport}. */
final class ToolCatalog {
  /** The three {@code execution.taskSupport} values; {@code FORBIDDEN} tools carry no {@code execution} field. */
  enum TaskSupport { FORBIDDEN, OPTIONAL, REQUIRED }

  static final String WORK = "work";
  static final String WORK_OPTIONAL = "work_optional";
  static final String ECHO = "echo";
  static final String SUBMIT_JOB = "submit_job";
  static final String JOB_STATUS = "job_status";
  static final String CANCEL_JOB = "cancel_job";
  static final String STATS = "stats";
  static final String SLOW_PLAIN = "slow_plain";

  private final Map<String, TaskSupport> support = new LinkedHashMap<>();
  private final ArrayNode tools = JsonNodeFactory.instance.arrayNode();

  /** @param fixtures also list the conformance suite's fixture tools ({@link ConformanceTools}) */
  ToolCatalog(boolean fixtures) {
    add(WORK, "Runs for durationMs as a task; arguments steer the outcome and how control calls are answered.",
        workSchema(), TaskSupport.REQUIRED);
    add(WORK_OPTIONAL, "The work tool with optional task support: a plain call waits for the result.",
        workSchema(), TaskSupport.OPTIONAL);
    add(ECHO, "Returns its text argument.", schema(Map.of("text", "string"), "text"), TaskSupport.FORBIDDEN);
    add(SUBMIT_JOB, "Starts a job (ordinary tools, no MCP tasks); returns {task_id, status}.",
        workSchema(), TaskSupport.FORBIDDEN);
    add(JOB_STATUS, "Reports a job: {task_id, status, result?, error?, error_code?, poll_after_seconds?}.",
        schema(Map.of("task_id", "string"), "task_id"), TaskSupport.FORBIDDEN);
    add(CANCEL_JOB, "Cancels a job.", schema(Map.of("task_id", "string"), "task_id"), TaskSupport.FORBIDDEN);
    add(STATS, "Every control call received per task (method, startMs, endMs, sessionId).",
        schema(Map.of("taskId", "string"), null), TaskSupport.FORBIDDEN);
    add(SLOW_PLAIN, "Answers after durationMs (no task support), reporting steps progress notifications meanwhile.",
        schema(slowPlainProperties(), null), TaskSupport.FORBIDDEN);
    if (fixtures) {
      for (JsonNode tool : ConformanceTools.definitions()) {
        support.put(tool.get("name").textValue(), TaskSupport.FORBIDDEN);
        tools.add(tool);
      }
    }
  }

  JsonNode list() {
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    answer.set("tools", tools.deepCopy());
    return answer;
  }

  /** The 2026-07-28 listing: per-tool task metadata is gone, so no tool carries {@code execution}. */
  JsonNode list2026() {
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    ArrayNode list = answer.putArray("tools");
    for (JsonNode tool : tools) {
      ObjectNode copy = tool.deepCopy();
      copy.remove("execution");
      list.add(copy);
    }
    return answer;
  }

  Optional<TaskSupport> support(String tool) {
    return Optional.ofNullable(support.get(tool));
  }

  private void add(String name, String description, ObjectNode inputSchema, TaskSupport taskSupport) {
    support.put(name, taskSupport);
    ObjectNode tool = tools.addObject();
    tool.put("name", name);
    tool.put("description", description);
    tool.set("inputSchema", inputSchema);
    tool.putObject("annotations").put("idempotentHint", false);
    if (taskSupport != TaskSupport.FORBIDDEN) {
      tool.putObject("execution").put("taskSupport", taskSupport.name().toLowerCase(Locale.ROOT));
    }
  }

  private static Map<String, String> slowPlainProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("durationMs", "integer");
    properties.put("steps", "integer");
    properties.put("result", "string");
    return properties;
  }

  private static ObjectNode workSchema() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("durationMs", "integer");
    properties.put("result", "string");
    properties.put("fail", "boolean");
    properties.put("failMessage", "string");
    properties.put("inputRequiredMs", "integer");
    properties.put("resultBytes", "integer");
    properties.put("malformed", "boolean|string");
    properties.put("statusDelayMs", "integer");
    properties.put("statusHang", "boolean");
    properties.put("cancelDelayMs", "integer");
    properties.put("cancelHang", "boolean");
    properties.put("createDelayMs", "integer");
    properties.put("failAs", "string");
    properties.put("errorCode", "integer");
    properties.put("askInput", "string");
    properties.put("approveFirst", "boolean|string");
    properties.put("cancelIgnored", "boolean");
    return schema(properties, null);
  }

  /** A JSON Schema object; a type written {@code a|b} becomes the type array {@code [a, b]}. */
  private static ObjectNode schema(Map<String, String> properties, String required) {
    ObjectNode schema = JsonNodeFactory.instance.objectNode();
    schema.put("type", "object");
    ObjectNode props = schema.putObject("properties");
    properties.forEach((name, type) -> {
      if (type.contains("|")) {
        ArrayNode types = props.putObject(name).putArray("type");
        for (String alternative : type.split("\\|")) {
          types.add(alternative);
        }
      } else {
        props.putObject(name).put("type", type);
      }
    });
    if (required != null) {
      schema.putArray("required").add(required);
    }
    return schema;
  }
}
