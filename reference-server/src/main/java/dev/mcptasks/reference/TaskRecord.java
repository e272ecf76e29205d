package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The mutable state of one task or job; every read and transition holds the record's monitor, so a terminal status,
 * once set, is never overwritten (the spec's "terminal states MUST NOT change", cancelled included).
 */
final class TaskRecord {
  /**
   * A 2025-11-25 task, a 2026-07-28 extension task, or a job of the ordinary-tools toolset. Jobs are invisible to
   * task methods and the reverse; extension tasks are invisible to 2025 requests, while 2026 requests see both kinds
   * of task (SEP-2663: a dual server keeps serving tasks/get and tasks/cancel for tasks created under 2025).
   */
  enum Kind { TASK, EXTENSION_TASK, JOB }

  /** What a {@code tasks/update} entry did to the record. */
  enum Answered {
    /** The key was outstanding: the answer is stored and, the last one, moved the task back to working. */
    ACCEPTED,
    /** Unknown, already answered or superseded key, or the task no longer waits: ignored (plain ack). */
    IGNORED
  }

  private final String id;
  private final Kind kind;
  private final String sessionId;
  private final long sequence;
  private final TaskBehaviour behaviour;
  private final Instant createdAt;
  private final long ttlMs;
  private final long pollIntervalMs;
  private final Consumer<TaskRecord> listener;
  private final CompletableFuture<WireStatus> terminal = new CompletableFuture<>();

  private WireStatus status = WireStatus.WORKING;
  private String statusMessage;
  private Instant lastUpdatedAt;
  private ObjectNode result;
  private ObjectNode error;
  private Future<?> pendingStage;
  /** The 2026 input requests not answered yet, by key; empty unless the status is input_required. */
  private final Map<String, ObjectNode> inputRequests = new LinkedHashMap<>();
  /** The 2026 answers delivered, by key (echoed in the result so that tests can prove delivery). */
  private final ObjectNode answers = JsonNodeFactory.instance.objectNode();
  /** The MRTR answers that let the creating tools/call through; null when there was no round. */
  private JsonNode approval;

  TaskRecord(String id, Kind kind, String sessionId, long sequence, TaskBehaviour behaviour, Instant createdAt,
      long ttlMs, long pollIntervalMs, String statusMessage, Consumer<TaskRecord> listener) {
    this.id = id;
    this.kind = kind;
    this.sessionId = sessionId;
    this.sequence = sequence;
    this.behaviour = behaviour;
    this.createdAt = createdAt;
    this.lastUpdatedAt = createdAt;
    this.ttlMs = ttlMs;
    this.pollIntervalMs = pollIntervalMs;
    this.statusMessage = statusMessage;
    this.listener = listener;
  }

  String id() {
    return id;
  }

  Kind kind() {
    return kind;
  }

  String sessionId() {
    return sessionId;
  }

  long sequence() {
    return sequence;
  }

  TaskBehaviour behaviour() {
    return behaviour;
  }

  Instant createdAt() {
    return createdAt;
  }

  long ttlMs() {
    return ttlMs;
  }

  long pollIntervalMs() {
    return pollIntervalMs;
  }

  /** Tells the creator's listener (status notifications) about the current status. */
  synchronized void announce() {
    listener.accept(this);
  }

  /** Completes with the terminal status once the record reaches one. */
  CompletableFuture<WireStatus> terminal() {
    return terminal;
  }

  synchronized WireStatus status() {
    return status;
  }

  synchronized String statusMessage() {
    return statusMessage;
  }

  /** The stored CallToolResult of a completed or failed record; null otherwise. */
  synchronized ObjectNode result() {
    return result;
  }

  /** Remembers the scheduled next stage so that cancellation can drop it. */
  synchronized void pendingStage(Future<?> stage) {
    this.pendingStage = stage;
  }

  /**
   * Moves to {@code next} unless the record is already terminal; returns false (and changes nothing) when it is.
   * The change is announced while holding the monitor, so notifications leave in transition order and each carries
   * the state it reports; a terminal move completes {@link #terminal()} only after that, so on stdio the status
   * notification precedes the answer of a waiting {@code tasks/result}.
   */
  boolean transition(WireStatus next, String message, ObjectNode finalResult, Instant now) {
    return transition(next, message, finalResult, null, now);
  }

  /** {@link #transition(WireStatus, String, ObjectNode, Instant)} that also stores a 2026 {@code error} object. */
  boolean transition(WireStatus next, String message, ObjectNode finalResult, ObjectNode finalError, Instant now) {
    Future<?> dropped = null;
    synchronized (this) {
      if (status.terminal()) {
        return false;
      }
      status = next;
      statusMessage = message;
      lastUpdatedAt = now;
      inputRequests.clear();
      if (next.terminal()) {
        result = finalResult;
        error = finalError;
        dropped = pendingStage;
        pendingStage = null;
      }
      announce();
    }
    if (dropped != null) {
      dropped.cancel(false);
    }
    if (next.terminal()) {
      terminal.complete(next);
    }
    return true;
  }

  /**
   * Moves a working task to {@code input_required} with the one request {@code key}; false (nothing changes) when it
   * is no longer working, e.g. cancelled before its first stage ran.
   */
  synchronized boolean askForInput(String key, ObjectNode request, String message, Instant now) {
    if (status != WireStatus.WORKING) {
      return false;
    }
    status = WireStatus.INPUT_REQUIRED;
    statusMessage = message;
    lastUpdatedAt = now;
    inputRequests.put(key, request);
    announce();
    return true;
  }

  /**
   * Delivers the answer to input request {@code key}. Only an outstanding key of a task still waiting is accepted;
   * the key is then retired for good, so a duplicate is ignored. The last outstanding answer moves the task back to
   * working, under the same monitor as every other transition, so a concurrent cancel or timer resume either comes
   * first (and this is ignored) or sees the task working.
   */
  synchronized Answered answer(String key, JsonNode response, Instant now) {
    if (status != WireStatus.INPUT_REQUIRED || inputRequests.remove(key) == null) {
      return Answered.IGNORED;
    }
    answers.set(key, response.deepCopy());
    if (inputRequests.isEmpty()) {
      status = WireStatus.WORKING;
      statusMessage = "Working";
      lastUpdatedAt = now;
      announce();
    }
    return Answered.ACCEPTED;
  }

  /** Resumes an input_required task without an answer (its requests are superseded); false when it no longer waits. */
  synchronized boolean resume(Instant now) {
    if (status != WireStatus.INPUT_REQUIRED) {
      return false;
    }
    inputRequests.clear();
    status = WireStatus.WORKING;
    statusMessage = "Working";
    lastUpdatedAt = now;
    announce();
    return true;
  }

  synchronized boolean waitingForInput() {
    return status == WireStatus.INPUT_REQUIRED;
  }

  /** A copy of the answers delivered so far, by key. */
  synchronized ObjectNode answers() {
    return answers.deepCopy();
  }

  synchronized void approval(JsonNode responses) {
    this.approval = responses == null ? null : responses.deepCopy();
  }

  synchronized JsonNode approval() {
    return approval;
  }

  /** The stored JSON-RPC error object of a failed 2026 task; null otherwise. */
  synchronized ObjectNode error() {
    return error;
  }

  /** Fails pending {@code tasks/result} waiters with "not found" once the record is deleted at ttl expiry. */
  void expired() {
    terminal.completeExceptionally(TaskMethods.notFound(id));
  }

  /** The wire {@code Task} object, fields in server-everything's order. */
  synchronized ObjectNode toWire() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("taskId", id);
    node.put("status", status.wire());
    node.put("ttl", ttlMs);
    node.put("createdAt", createdAt.toString());
    node.put("lastUpdatedAt", lastUpdatedAt.toString());
    node.put("pollInterval", pollIntervalMs);
    if (statusMessage != null) {
      node.put("statusMessage", statusMessage);
    }
    return node;
  }

  /**
   * The 2026-07-28 {@code Task} (fields in the observed SDK order). {@code detailed} makes it a DetailedTask: the
   * payload of its status ({@code inputRequests}, {@code result} with its own {@code resultType: "complete"} unless
   * {@code bareResult}, or {@code error}). A 2025 task that failed has a tool result and no error object; it is shown
   * with an error built from its status message, since a 2026 {@code failed} task must carry one.
   */
  synchronized ObjectNode toWire2026(boolean detailed, boolean bareResult) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("taskId", id);
    node.put("status", status.wire());
    if (statusMessage != null) {
      node.put("statusMessage", statusMessage);
    }
    node.put("createdAt", createdAt.toString());
    node.put("lastUpdatedAt", lastUpdatedAt.toString());
    node.put("ttlMs", ttlMs);
    node.put("pollIntervalMs", pollIntervalMs);
    if (!detailed) {
      return node;
    }
    if (status == WireStatus.INPUT_REQUIRED && !inputRequests.isEmpty()) {
      ObjectNode requests = node.putObject("inputRequests");
      inputRequests.forEach((key, request) -> requests.set(key, request.deepCopy()));
    } else if (status == WireStatus.COMPLETED && result != null) {
      ObjectNode embedded = JsonNodeFactory.instance.objectNode();
      if (!bareResult) {
        embedded.put("resultType", "complete");
      }
      embedded.setAll(result.deepCopy());
      node.set("result", embedded);
    } else if (status == WireStatus.FAILED) {
      node.set("error", error != null ? error.deepCopy() : JsonNodeFactory.instance.objectNode()
          .put("code", JsonRpcException.INTERNAL_ERROR).put("message", String.valueOf(statusMessage)));
    }
    return node;
  }
}
