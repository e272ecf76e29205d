package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Drives a record through its stages on the shared scheduler (no thread waits for a task): optionally
 * {@code input_required} for {@code inputRequiredMs}, then {@code working} for {@code durationMs}, then
 * {@code completed} or {@code failed}. Every status change is announced to the record's listener.
 */
final class TaskRunner {
  private final TaskStore store;
  private final ScheduledExecutorService scheduler;

  TaskRunner(TaskStore store, ScheduledExecutorService scheduler) {
    this.store = store;
    this.scheduler = scheduler;
  }

  /**
   * Starts {@code record}. The move to {@code input_required} happens before this returns, so a {@code tasks/get}
   * sent after the create response always observes it.
   */
  void start(TaskRecord record) {
    TaskBehaviour behaviour = record.behaviour();
    if (record.kind() == TaskRecord.Kind.EXTENSION_TASK) {
      startTask2026(record, behaviour);
      return;
    }
    if (behaviour.inputRequiredMs() > 0) {
      record.transition(WireStatus.INPUT_REQUIRED, "Waiting for input", null, store.now());
      schedule(record, behaviour.inputRequiredMs(), () -> {
        if (record.transition(WireStatus.WORKING, "Working", null, store.now())) {
          schedule(record, behaviour.durationMs(), () -> finish(record));
        }
      });
    } else {
      schedule(record, behaviour.durationMs(), () -> finish(record));
    }
  }

  /**
   * A 2026 task that asks for input enters {@code input_required} at once with one request under a fresh key; it
   * resumes when {@link #answer} delivers the answer, or, for the 2025-style {@code inputRequiredMs} without
   * {@code askInput}, when that time runs out (the request is then superseded). Whichever comes first wins under the
   * record's monitor; the other finds the task no longer waiting and does nothing.
   */
  private void startTask2026(TaskRecord record, TaskBehaviour behaviour) {
    if (!behaviour.asksInput()) {
      schedule(record, behaviour.durationMs(), () -> finish(record));
      return;
    }
    String message = behaviour.askInput() != null ? behaviour.askInput() : "Please confirm";
    String key = "input-" + UUID.randomUUID().toString().substring(0, 8);
    record.askForInput(key, elicitation(message), "Waiting for input", store.now());
    if (behaviour.askInput() == null) {
      schedule(record, behaviour.inputRequiredMs(), () -> {
        if (record.resume(store.now())) {
          schedule(record, behaviour.durationMs(), () -> finish(record));
        }
      });
    }
  }

  /** Delivers a 2026 answer; the last outstanding one starts the task's remaining {@code durationMs}. */
  TaskRecord.Answered answer(TaskRecord record, String key, JsonNode response) {
    TaskRecord.Answered outcome = record.answer(key, response, store.now());
    if (outcome == TaskRecord.Answered.ACCEPTED && !record.waitingForInput()) {
      schedule(record, record.behaviour().durationMs(), () -> finish(record));
    }
    return outcome;
  }

  /** The form elicitation a 2026 task asks its client, as an {@code inputRequests} entry. */
  static ObjectNode elicitation(String message) {
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.put("method", "elicitation/create");
    ObjectNode params = request.putObject("params");
    params.put("mode", "form");
    params.put("message", message);
    ObjectNode schema = params.putObject("requestedSchema");
    schema.put("type", "object");
    schema.putObject("properties").putObject("ok").put("type", "boolean");
    schema.putArray("required").add("ok");
    return request;
  }

  /** Cancels {@code record} unless it is terminal; returns whether this call cancelled it. */
  boolean cancel(TaskRecord record) {
    return record.transition(WireStatus.CANCELLED, "Client cancelled task execution.", null, store.now());
  }

  private void finish(TaskRecord record) {
    TaskBehaviour behaviour = record.behaviour();
    if (record.kind() == TaskRecord.Kind.EXTENSION_TASK) {
      finishTask2026(record, behaviour);
      return;
    }
    if (behaviour.fail()) {
      record.transition(WireStatus.FAILED, behaviour.failMessage(), failure(behaviour), store.now());
    } else {
      record.transition(WireStatus.COMPLETED, "Completed", success(behaviour), store.now());
    }
  }

  /**
   * 2026 semantics: a JSON-RPC-style failure is {@code failed} with an {@code error}; a tool error ({@code isError})
   * is a {@code completed} task whose result says so. A successful result echoes the delivered answers.
   */
  private void finishTask2026(TaskRecord record, TaskBehaviour behaviour) {
    if (behaviour.fail() && behaviour.failAsError()) {
      ObjectNode error = JsonNodeFactory.instance.objectNode()
          .put("code", behaviour.errorCode()).put("message", behaviour.failMessage());
      record.transition(WireStatus.FAILED, "Tool execution failed: " + behaviour.failMessage(), null, error,
          store.now());
    } else if (behaviour.fail()) {
      record.transition(WireStatus.COMPLETED, "Completed", failure(behaviour), store.now());
    } else {
      record.transition(WireStatus.COMPLETED, "Completed", echoing(success(behaviour), record), store.now());
    }
  }

  /** Adds the delivered answers and the MRTR approval to {@code structuredContent}, where tests can read them. */
  static ObjectNode echoing(ObjectNode result, TaskRecord record) {
    ObjectNode answers = record.answers();
    JsonNode approval = record.approval();
    if (answers.isEmpty() && approval == null) {
      return result;
    }
    ObjectNode structured = result.has("structuredContent") ? (ObjectNode) result.get("structuredContent")
        : result.putObject("structuredContent");
    if (!answers.isEmpty()) {
      structured.set("inputResponses", answers);
    }
    if (approval != null) {
      structured.set("approval", approval);
    }
    return result;
  }

  private void schedule(TaskRecord record, long delayMs, Runnable stage) {
    record.pendingStage(scheduler.schedule(stage, delayMs, TimeUnit.MILLISECONDS));
  }

  static ObjectNode success(TaskBehaviour behaviour) {
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    if (behaviour.resultBytes() > 0) {
      result.putArray("content").addObject().put("type", "text").put("text", filler(behaviour.resultBytes()));
    } else {
      result.putArray("content").addObject().put("type", "text").put("text", behaviour.result());
      result.putObject("structuredContent").put("result", behaviour.result());
    }
    return result;
  }

  static ObjectNode failure(TaskBehaviour behaviour) {
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.putArray("content").addObject().put("type", "text").put("text", behaviour.failMessage());
    result.put("isError", true);
    return result;
  }

  /** ASCII text of exactly {@code bytes} bytes (and characters), so its UTF-8 size is the size asked for. */
  private static String filler(long bytes) {
    String pattern = "0123456789abcdefghijklmnopqrstuvwxyz\n";
    StringBuilder text = new StringBuilder((int) bytes);
    while (text.length() < bytes) {
      text.append(pattern, 0, (int) Math.min(pattern.length(), bytes - text.length()));
    }
    return text.toString();
  }
}
