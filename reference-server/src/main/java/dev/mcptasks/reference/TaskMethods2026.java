package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel} on the 2026-07-28 path. Each needs the tasks
 * extension declared on the request itself (-32021 otherwise); unknown and expired ids are -32602. They reach 2026
 * tasks and, in dual mode, 2025 tasks too. The scripted delays and hangs of the task's behaviour apply as in 2025.
 */
final class TaskMethods2026 {
  static final String GENERATION = Envelope.VERSION;

  private final ReferenceServerOptions options;
  private final TaskStore store;
  private final TaskRunner runner;
  private final ControlCalls controlCalls;
  private final CallJournal journal;

  TaskMethods2026(ReferenceServerOptions options, TaskStore store, TaskRunner runner, ControlCalls controlCalls,
      CallJournal journal) {
    this.options = options;
    this.store = store;
    this.runner = runner;
    this.controlCalls = controlCalls;
    this.journal = journal;
  }

  /** The DetailedTask, computed when the (possibly delayed) answer leaves. */
  CompletableFuture<JsonNode> get(ClientSession session, JsonNode params, Envelope envelope) {
    envelope.requireTasks();
    TaskRecord record = store.findFor2026(JsonRpc.requiredText(params, "taskId"));
    TaskBehaviour behaviour = record.behaviour();
    return controlCalls.answer(record, "tasks/get", session, behaviour.statusDelayMs(), behaviour.statusHang(),
        GENERATION, () -> CompletableFuture.completedFuture(
            TaskMethods.malform(record.toWire2026(true, options.bareResult()), behaviour.malformed())));
  }

  /**
   * Delivers answers; always a plain ack. An entry that is not a bare result (not an object, or wrapped: it has a
   * {@code method} or {@code result} member) is ignored like an unknown or already answered key. Every entry is
   * journaled with whether it was accepted.
   */
  CompletableFuture<JsonNode> update(ClientSession session, JsonNode params, Envelope envelope) {
    envelope.requireTasks();
    TaskRecord record = store.findFor2026(JsonRpc.requiredText(params, "taskId"));
    JsonNode responses = params.path("inputResponses");
    if (!responses.isObject()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          "Invalid params: inputResponses must be an object but was " + responses);
    }
    return controlCalls.answer(record, "tasks/update", session, 0, false, GENERATION, () -> {
      for (Iterator<Map.Entry<String, JsonNode>> it = responses.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = it.next();
        JsonNode response = entry.getValue();
        boolean bare = response.isObject() && !response.has("method") && !response.has("result");
        boolean accepted = bare
            && runner.answer(record, entry.getKey(), response) == TaskRecord.Answered.ACCEPTED;
        journal.answered(record.id(), entry.getKey(), response, accepted, "tasks/update");
      }
      return CompletableFuture.completedFuture(JsonNodeFactory.instance.objectNode());
    });
  }

  /**
   * An empty ack whatever happens: the task becomes cancelled unless it is terminal already or its behaviour says
   * {@code cancelIgnored} (it then runs on and ends as scripted, the race the client lost).
   */
  CompletableFuture<JsonNode> cancel(ClientSession session, JsonNode params, Envelope envelope) {
    envelope.requireTasks();
    TaskRecord record = store.findFor2026(JsonRpc.requiredText(params, "taskId"));
    TaskBehaviour behaviour = record.behaviour();
    return controlCalls.answer(record, "tasks/cancel", session, behaviour.cancelDelayMs(), behaviour.cancelHang(),
        GENERATION, () -> {
          if (!(behaviour.cancelIgnored() && record.kind() == TaskRecord.Kind.EXTENSION_TASK)) {
            runner.cancel(record);
          }
          return CompletableFuture.completedFuture(JsonNodeFactory.instance.objectNode());
        });
  }
}
