package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;

/**
 * The ordinary-tools toolset: {@code submit_job}, {@code job_status} and {@code cancel_job} run the same behaviours
 * as {@code work} but expose them as plain tools, the way servers without MCP tasks do.
 */
final class JobTools {
  private final TaskStore store;
  private final TaskRunner runner;
  private final ControlCalls controlCalls;

  JobTools(TaskStore store, TaskRunner runner, ControlCalls controlCalls) {
    this.store = store;
    this.runner = runner;
    this.controlCalls = controlCalls;
  }

  JsonNode submit(ClientSession session, JsonNode arguments) {
    TaskBehaviour behaviour = TaskBehaviour.from(arguments, 1000);
    // Jobs announce nothing: ordinary tools have no status notifications.
    TaskRecord record = store.create(TaskRecord.Kind.JOB, session.id(), behaviour, null, "Working", job -> { });
    controlCalls.created(record, session, arguments);
    controlCalls.recordInstant(record, "submit_job", session);
    runner.start(record);
    ObjectNode structured = JsonNodeFactory.instance.objectNode();
    structured.put("task_id", record.id());
    structured.put("status", "running");
    return ToolResults.structured(structured);
  }

  CompletableFuture<JsonNode> status(ClientSession session, JsonNode arguments) {
    String jobId = JsonRpc.requiredText(arguments, "task_id");
    TaskRecord record = store.find(jobId, TaskRecord.Kind.JOB, session.id()).orElse(null);
    if (record == null) {
      return CompletableFuture.completedFuture(unknown(jobId));
    }
    TaskBehaviour behaviour = record.behaviour();
    return controlCalls.answer(record, "job_status", session, behaviour.statusDelayMs(), behaviour.statusHang(),
        () -> CompletableFuture.completedFuture(ToolResults.structured(describe(record))));
  }

  CompletableFuture<JsonNode> cancel(ClientSession session, JsonNode arguments) {
    String jobId = JsonRpc.requiredText(arguments, "task_id");
    TaskRecord record = store.find(jobId, TaskRecord.Kind.JOB, session.id()).orElse(null);
    if (record == null) {
      return CompletableFuture.completedFuture(unknown(jobId));
    }
    TaskBehaviour behaviour = record.behaviour();
    return controlCalls.answer(record, "cancel_job", session, behaviour.cancelDelayMs(), behaviour.cancelHang(),
        () -> {
          if (!runner.cancel(record)) {
            ObjectNode refused = describe(record);
            refused.put("error", "Cannot cancel job in terminal status: " + record.status().wire());
            refused.put("error_code", "already_terminal");
            return CompletableFuture.completedFuture(ToolResults.structuredError(refused));
          }
          return CompletableFuture.completedFuture(ToolResults.structured(describe(record)));
        });
  }

  private static ObjectNode describe(TaskRecord record) {
    ObjectNode structured = JsonNodeFactory.instance.objectNode();
    structured.put("task_id", record.id());
    WireStatus status = record.status();
    structured.put("status", status == WireStatus.WORKING ? "running" : status.wire());
    switch (status) {
      case COMPLETED -> structured.set("result", record.result().path("content").path(0).path("text"));
      case FAILED -> {
        structured.put("error", record.statusMessage());
        structured.put("error_code", "job_failed");
      }
      case CANCELLED -> structured.put("error", record.statusMessage());
      default -> structured.put("poll_after_seconds", Math.max(1, (record.pollIntervalMs() + 999) / 1000));
    }
    return structured;
  }

  private static JsonNode unknown(String jobId) {
    ObjectNode structured = JsonNodeFactory.instance.objectNode();
    structured.put("task_id", jobId);
    structured.put("error", "Unknown job: " + jobId);
    structured.put("error_code", "not_found");
    return ToolResults.structuredError(structured);
  }
}
