package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The mutable state of one task or job; every read and transition holds the record's monitor, so a terminal status,
 * once set, is never overwritten (the spec's "terminal states MUST NOT change", cancelled included).
 */
final class TaskRecord {
  /** A 2025-11-25 task or a job of the ordinary-tools toolset; each kind is invisible to the other. */
  enum Kind { TASK, JOB }

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
  private Future<?> pendingStage;

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
    Future<?> dropped = null;
    synchronized (this) {
      if (status.terminal()) {
        return false;
      }
      status = next;
      statusMessage = message;
      lastUpdatedAt = now;
      if (next.terminal()) {
        result = finalResult;
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
}
