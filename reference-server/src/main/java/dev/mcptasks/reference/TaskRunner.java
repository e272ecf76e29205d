package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

  /** Cancels {@code record} unless it is terminal; returns whether this call cancelled it. */
  boolean cancel(TaskRecord record) {
    return record.transition(WireStatus.CANCELLED, "Client cancelled task execution.", null, store.now());
  }

  private void finish(TaskRecord record) {
    TaskBehaviour behaviour = record.behaviour();
    if (behaviour.fail()) {
      record.transition(WireStatus.FAILED, behaviour.failMessage(), failure(behaviour), store.now());
    } else {
      record.transition(WireStatus.COMPLETED, "Completed", success(behaviour), store.now());
    }
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
