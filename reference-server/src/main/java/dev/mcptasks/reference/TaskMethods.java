package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.concurrent.CompletableFuture;

/** The {@code tasks/get}, {@code tasks/result}, {@code tasks/cancel} and {@code tasks/list} methods. */
final class TaskMethods {
  private final TaskStore store;
  private final TaskRunner runner;
  private final ControlCalls controlCalls;

  TaskMethods(TaskStore store, TaskRunner runner, ControlCalls controlCalls) {
    this.store = store;
    this.runner = runner;
    this.controlCalls = controlCalls;
  }

  CompletableFuture<JsonNode> get(ClientSession session, JsonNode params) {
    String taskId = JsonRpc.requiredText(params, "taskId");
    TaskRecord record = store.find(taskId, TaskRecord.Kind.TASK, session.id())
        .orElseThrow(() -> new JsonRpcException(JsonRpcException.INVALID_PARAMS,
            "Failed to retrieve task: Task not found"));
    TaskBehaviour behaviour = record.behaviour();
    return controlCalls.answer(record, "tasks/get", session, behaviour.statusDelayMs(), behaviour.statusHang(),
        () -> CompletableFuture.completedFuture(malform(record.toWire(), behaviour.malformed())));
  }

  /** Holds the answer until the task is terminal, then returns its stored result (or -32603 when cancelled). */
  CompletableFuture<JsonNode> result(ClientSession session, JsonNode params) {
    String taskId = JsonRpc.requiredText(params, "taskId");
    TaskRecord record = store.find(taskId, TaskRecord.Kind.TASK, session.id())
        .orElseThrow(() -> notFound(taskId));
    return controlCalls.answer(record, "tasks/result", session, 0, false,
        () -> record.terminal().thenApply(status -> storedResult(record, status)));
  }

  CompletableFuture<JsonNode> cancel(ClientSession session, JsonNode params) {
    String taskId = JsonRpc.requiredText(params, "taskId");
    TaskRecord record = store.find(taskId, TaskRecord.Kind.TASK, session.id())
        .orElseThrow(() -> notFound(taskId));
    TaskBehaviour behaviour = record.behaviour();
    return controlCalls.answer(record, "tasks/cancel", session, behaviour.cancelDelayMs(), behaviour.cancelHang(),
        () -> {
          if (!runner.cancel(record)) {
            throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
                "Cannot cancel task in terminal status: " + record.status().wire());
          }
          ObjectNode answer = JsonNodeFactory.instance.objectNode();
          answer.putObject("_meta");
          answer.setAll(record.toWire());
          return CompletableFuture.completedFuture(answer);
        });
  }

  JsonNode list(ClientSession session, JsonNode params) {
    JsonNode cursor = params.path("cursor");
    if (!cursor.isMissingNode() && !cursor.isNull() && !cursor.isTextual()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Failed to list tasks: Invalid cursor: " + cursor);
    }
    TaskStore.Page page = store.list(session.id(), cursor.isTextual() ? cursor.textValue() : null);
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    ArrayNode tasks = answer.putArray("tasks");
    page.tasks().forEach(record -> tasks.add(record.toWire()));
    if (page.nextCursor() != null) {
      answer.put("nextCursor", page.nextCursor());
    }
    return answer;
  }

  private static JsonNode storedResult(TaskRecord record, WireStatus status) {
    if (status == WireStatus.CANCELLED) {
      throw new JsonRpcException(JsonRpcException.INTERNAL_ERROR,
          "Task " + record.id() + " has no result stored");
    }
    ObjectNode answer = record.result().deepCopy();
    answer.putObject("_meta").putObject(JsonRpc.RELATED_TASK).put("taskId", record.id());
    return answer;
  }

  static JsonNode malform(ObjectNode task, TaskBehaviour.Malformed malformed) {
    return switch (malformed) {
      case NONE -> task;
      case BOGUS_STATUS -> task.put("status", "bogus");
      case MISSING_TASK_ID -> {
        task.remove("taskId");
        yield task;
      }
      case NOT_OBJECT -> TextNode.valueOf("not a task");
    };
  }

  static JsonRpcException notFound(String taskId) {
    return new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Task not found: " + taskId);
  }
}
