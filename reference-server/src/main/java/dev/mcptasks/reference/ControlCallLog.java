package dev.mcptasks.reference;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every control call received per task or job, kept after the task expires, so tests can check that two owners never
 * polled or cancelled the same task at overlapping times.
 */
final class ControlCallLog {

  /** A started call; {@link #end(Ticket, long)} closes its interval. */
  record Ticket(String taskId, int index) {}

  /** Per-task calls plus the highest number that were in flight at once. */
  record TaskCalls(List<ControlCall> calls, int maxConcurrent) {}

  private static final class Entry {
    final List<ControlCall> calls = new ArrayList<>();
    int inFlight;
    int maxConcurrent;
  }

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  Ticket begin(String taskId, String method, String sessionId, long nowMs) {
    Entry entry = entries.computeIfAbsent(taskId, id -> new Entry());
    synchronized (entry) {
      entry.calls.add(new ControlCall(method, nowMs, null, sessionId));
      entry.inFlight++;
      entry.maxConcurrent = Math.max(entry.maxConcurrent, entry.inFlight);
      return new Ticket(taskId, entry.calls.size() - 1);
    }
  }

  void end(Ticket ticket, long nowMs) {
    Entry entry = entries.get(ticket.taskId());
    synchronized (entry) {
      ControlCall started = entry.calls.get(ticket.index());
      if (started.endMs() == null) {
        entry.calls.set(ticket.index(), new ControlCall(started.method(), started.startMs(), nowMs,
            started.sessionId()));
        entry.inFlight--;
      }
    }
  }

  /** The calls recorded for {@code taskId}, empty when there were none. */
  TaskCalls calls(String taskId) {
    Entry entry = entries.get(taskId);
    if (entry == null) {
      return new TaskCalls(List.of(), 0);
    }
    synchronized (entry) {
      return new TaskCalls(List.copyOf(entry.calls), entry.maxConcurrent);
    }
  }

  /** Ids of every task with at least one recorded call. */
  List<String> taskIds() {
    return List.copyOf(entries.keySet());
  }
}
