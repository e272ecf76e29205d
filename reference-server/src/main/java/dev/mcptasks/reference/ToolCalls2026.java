package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code tools/call} on the 2026-07-28 path. The server decides per request: a task-capable tool ({@code work},
 * {@code work_optional}) answers a flat CreateTaskResult when the request declared the tasks extension; without it
 * {@code work_optional} runs inline and {@code work} is refused with -32021. Other tools answer at once. A leftover
 * 2025 {@code task} param is ignored.
 *
 * <p>MRTR before the task ({@code approveFirst}): a call without {@code requestState} gets an
 * {@code input_required} round whose state is remembered for that tool; the retry carrying that state and an
 * accepting {@code inputResponses.approve} goes through (a declining one gets an isError result at once, an answer
 * without {@code approve} gets a fresh round). A state this server did not issue for that tool, or already consumed,
 * is -32602: a state is good for one retry only.
 */
final class ToolCalls2026 {
  static final String APPROVE_KEY = "approve";
  private static final long DEFAULT_DURATION_MS = 1000;

  private final ReferenceServerOptions options;
  private final ToolCatalog catalog;
  private final TaskStore store;
  private final TaskRunner runner;
  private final ToolCalls plainTools;
  private final ControlCalls controlCalls;
  private final CallJournal journal;
  /** Issued and not yet consumed MRTR request states, with the tool each was issued for. */
  private final Map<String, String> issuedStates = new ConcurrentHashMap<>();

  ToolCalls2026(ReferenceServerOptions options, ToolCatalog catalog, TaskStore store, TaskRunner runner,
      ToolCalls plainTools, ControlCalls controlCalls, CallJournal journal) {
    this.options = options;
    this.catalog = catalog;
    this.store = store;
    this.runner = runner;
    this.plainTools = plainTools;
    this.controlCalls = controlCalls;
    this.journal = journal;
  }

  CompletableFuture<JsonNode> call(ClientSession session, JsonNode params, Envelope envelope) {
    String name = JsonRpc.requiredText(params, "name");
    JsonNode arguments = params.path("arguments");
    ToolCatalog.TaskSupport support = catalog.support(name)
        .orElseThrow(() -> new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Tool " + name + " not found"));
    if (support == ToolCatalog.TaskSupport.FORBIDDEN) {
      return plainTools.plain(session, name, arguments);
    }
    boolean asTask = envelope.declaresTasks();
    if (!asTask && support == ToolCatalog.TaskSupport.REQUIRED) {
      throw Envelope.missingTasksCapability();
    }
    TaskBehaviour behaviour = TaskBehaviour.from(arguments, DEFAULT_DURATION_MS);
    if (!asTask && behaviour.asksInput()) {
      // Input asked for after the call returned can only be delivered to a task.
      throw Envelope.missingTasksCapability();
    }
    JsonNode approval = null;
    if (behaviour.approveFirst() != null) {
      JsonNode state = params.path("requestState");
      if (state.isMissingNode() || state.isNull()) {
        return done(inputRound(name, behaviour));
      }
      if (!state.isTextual() || !issuedStates.remove(state.textValue(), name)) {
        throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Invalid params: requestState " + state
            + " was not issued by this server for tool " + name + " or was already used");
      }
      JsonNode answer = params.path("inputResponses").path(APPROVE_KEY);
      if (!answer.isObject()) {
        return done(inputRound(name, behaviour));
      }
      approval = params.path("inputResponses");
      if (!"accept".equals(answer.path("action").asText())) {
        return done(ToolResults.error("Declined: " + name + " did not run"));
      }
    }
    return asTask ? createTask(session, arguments, behaviour, approval)
        : runInline(session, behaviour, approval);
  }

  /** An MRTR round on the call itself: the client answers and retries {@code tools/call} with the state. */
  private ObjectNode inputRound(String tool, TaskBehaviour behaviour) {
    String state = "approve-round-" + UUID.randomUUID().toString().replace("-", "");
    issuedStates.put(state, tool);
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    answer.put("resultType", "input_required");
    answer.putObject("inputRequests").set(APPROVE_KEY, TaskRunner.elicitation(behaviour.approveFirst()));
    answer.put("requestState", state);
    return answer;
  }

  /**
   * Creates and starts a task; the answer is built after the start, so a task that asks for input at once already
   * says {@code input_required}, and any {@code tasks/get} sent after it resolves (creation is strongly consistent).
   */
  private CompletableFuture<JsonNode> createTask(ClientSession session, JsonNode arguments, TaskBehaviour behaviour,
      JsonNode approval) {
    TaskRecord record = store.create(TaskRecord.Kind.EXTENSION_TASK, session.id(), behaviour, null, "Working",
        created -> { });
    record.approval(approval);
    controlCalls.created(record, session, arguments);
    if (approval != null) {
      journal.answered(record.id(), APPROVE_KEY, approval.path(APPROVE_KEY), true, "requestState");
    }
    runner.start(record);
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    if (options.contentQuirk()) {
      answer.putArray("content");
    }
    answer.put("resultType", "task");
    answer.setAll(record.toWire2026(false, options.bareResult()));
    return controlCalls.answer(record, "tools/call", session, behaviour.createDelayMs(), false,
        () -> CompletableFuture.completedFuture(answer));
  }

  /** No extension declared: a hidden task runs to its end and the call answers with its outcome. */
  private CompletableFuture<JsonNode> runInline(ClientSession session, TaskBehaviour behaviour, JsonNode approval) {
    TaskRecord record = store.create(TaskRecord.Kind.EXTENSION_TASK, session.id(), behaviour, null, "Working",
        created -> { });
    record.approval(approval);
    runner.start(record);
    return record.terminal().thenApply(status -> {
      if (status == WireStatus.FAILED) {
        ObjectNode error = record.error();
        throw new JsonRpcException(error.path("code").asInt(JsonRpcException.INTERNAL_ERROR),
            error.path("message").asText());
      }
      if (status == WireStatus.CANCELLED) {
        return ToolResults.error("Task " + record.id() + " was cancelled");
      }
      return record.result().deepCopy();
    });
  }

  private static CompletableFuture<JsonNode> done(JsonNode result) {
    return CompletableFuture.completedFuture(result);
  }
}
