package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tools/call}: checks task augmentation against the tool's {@code taskSupport} (spec errors, or SDK 1.32.2's
 * quirks unless strict), creates tasks for augmented calls and runs the plain tools.
 */
final class ToolCalls {
  private static final long DEFAULT_DURATION_MS = 1000;

  private final ReferenceServerOptions options;
  private final ToolCatalog catalog;
  private final TaskStore store;
  private final TaskRunner runner;
  private final JobTools jobs;
  private final ControlCallLog log;
  private final ControlCalls controlCalls;
  private final SlowPlainTool slowPlain;
  /** The conformance suite's fixture tools, or null when not served. */
  private final ConformanceFixtures fixtures;

  ToolCalls(ReferenceServerOptions options, ToolCatalog catalog, TaskStore store, TaskRunner runner, JobTools jobs,
      ControlCallLog log, ControlCalls controlCalls, SlowPlainTool slowPlain, ConformanceFixtures fixtures) {
    this.fixtures = fixtures;
    this.slowPlain = slowPlain;
    this.options = options;
    this.catalog = catalog;
    this.store = store;
    this.runner = runner;
    this.jobs = jobs;
    this.log = log;
    this.controlCalls = controlCalls;
  }

  CompletableFuture<JsonNode> call(ClientSession session, JsonNode params) {
    String name = JsonRpc.requiredText(params, "name");
    JsonNode arguments = params.path("arguments");
    JsonNode task = params.path("task");
    boolean augmented = !task.isMissingNode() && !task.isNull();
    if (augmented && !task.isObject()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "task must be an object but was " + task);
    }
    ToolCatalog.TaskSupport support = catalog.support(name)
        .orElseThrow(() -> new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Tool " + name + " not found"));
    if (augmented && support == ToolCatalog.TaskSupport.FORBIDDEN) {
      throw options.strictTaskSupport()
          ? new JsonRpcException(JsonRpcException.METHOD_NOT_FOUND,
              "Tool " + name + " does not support task augmentation (taskSupport: 'forbidden')")
          : new JsonRpcException(JsonRpcException.INVALID_PARAMS,
              "MCP error -32602: Invalid task creation result: expected object at path task (tool " + name
                  + " has taskSupport 'forbidden')");
    }
    if (!augmented && support == ToolCatalog.TaskSupport.REQUIRED) {
      String text = "Tool " + name + " requires task augmentation (taskSupport: 'required')";
      if (options.strictTaskSupport()) {
        throw new JsonRpcException(JsonRpcException.METHOD_NOT_FOUND, text);
      }
      return done(ToolResults.error("MCP error -32601: " + text));
    }
    if (augmented) {
      return createTask(session, arguments, task.path("ttl"));
    }
    if (ToolCatalog.WORK_OPTIONAL.equals(name)) {
      return runUntilTerminal(session, arguments);
    }
    if (fixtures != null && ConformanceFixtures.isTool(name)) {
      return fixtures.callTool(session, name, params.path("_meta").get("progressToken"));
    }
    if (ToolCatalog.SLOW_PLAIN.equals(name)) {
      return slowPlain.call(session, arguments, params.path("_meta").get("progressToken"));
    }
    return plain(session, name, arguments);
  }

  /** Runs a tool that never makes a task (taskSupport forbidden), on either generation. */
  CompletableFuture<JsonNode> plain(ClientSession session, String name, JsonNode arguments) {
    if (fixtures != null && ConformanceFixtures.isTool(name)) {
      return fixtures.callTool(session, name, null);
    }
    return switch (name) {
      case ToolCatalog.ECHO -> done(ToolResults.text(arguments.path("text").asText("")));
      case ToolCatalog.SUBMIT_JOB -> done(jobs.submit(session, arguments));
      case ToolCatalog.JOB_STATUS -> jobs.status(session, arguments);
      case ToolCatalog.CANCEL_JOB -> jobs.cancel(session, arguments);
      case ToolCatalog.STATS -> done(stats(arguments));
      case ToolCatalog.SLOW_PLAIN -> slowPlain.call(session, arguments, null);
      default -> throw new IllegalStateException("tool " + name + " is listed but has no plain-call handler");
    };
  }

  /**
   * Creates and starts a task. The "working" notification goes out before this returns, so on stdio it precedes the
   * CreateTaskResult, as server-everything's does. With {@code createDelayMs} the task exists and runs at once but
   * the answer leaves only after the delay: a client that dies meanwhile has created a task it never heard of.
   */
  private CompletableFuture<JsonNode> createTask(ClientSession session, JsonNode arguments, JsonNode ttl) {
    if (!ttl.isMissingNode() && !ttl.isNull() && !ttl.isIntegralNumber()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "task.ttl must be an integer but was " + ttl);
    }
    TaskBehaviour behaviour = TaskBehaviour.from(arguments, DEFAULT_DURATION_MS);
    Long requestedTtl = ttl.isIntegralNumber() ? ttl.longValue() : null;
    TaskRecord record = store.create(TaskRecord.Kind.TASK, session.id(), behaviour, requestedTtl, "Working",
        created -> session.notify(JsonRpc.notification("notifications/tasks/status", created.toWire())));
    controlCalls.created(record, session, arguments);
    record.announce();
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    answer.set("task", record.toWire());
    runner.start(record);
    return controlCalls.answer(record, "tools/call", session, behaviour.createDelayMs(), false,
        () -> CompletableFuture.completedFuture(answer));
  }

  /** A plain call of an optional tool: runs a hidden task (still announced, like the SDK) and answers at the end. */
  private CompletableFuture<JsonNode> runUntilTerminal(ClientSession session, JsonNode arguments) {
    TaskBehaviour behaviour = TaskBehaviour.from(arguments, DEFAULT_DURATION_MS);
    TaskRecord record = store.create(TaskRecord.Kind.TASK, session.id(), behaviour, null, "Working",
        created -> session.notify(JsonRpc.notification("notifications/tasks/status", created.toWire())));
    record.announce();
    runner.start(record);
    return record.terminal().thenApply(status -> status == WireStatus.CANCELLED
        ? ToolResults.error("Task " + record.id() + " was cancelled")
        : record.result());
  }

  private JsonNode stats(JsonNode arguments) {
    JsonNode taskId = arguments.path("taskId");
    List<String> ids = taskId.isTextual() ? List.of(taskId.textValue()) : log.taskIds();
    ObjectNode structured = JsonNodeFactory.instance.objectNode();
    ObjectNode tasks = structured.putObject("tasks");
    for (String id : ids) {
      ControlCallLog.TaskCalls calls = log.calls(id);
      ObjectNode entry = tasks.putObject(id);
      entry.put("maxConcurrent", calls.maxConcurrent());
      ArrayNode list = entry.putArray("calls");
      for (ControlCall call : calls.calls()) {
        ObjectNode node = list.addObject();
        node.put("method", call.method());
        node.put("startMs", call.startMs());
        if (call.endMs() == null) {
          node.putNull("endMs");
        } else {
          node.put("endMs", call.endMs());
        }
        node.put("sessionId", call.sessionId());
      }
    }
    return ToolResults.structured(structured);
  }

  private static CompletableFuture<JsonNode> done(JsonNode result) {
    return CompletableFuture.completedFuture(result);
  }
}
