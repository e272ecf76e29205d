package dev.mcptasks.reference;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The in-memory tasks and jobs, with ttl expiry counted from creation and, in session-scoped mode, visibility
 * restricted to the creating session (an invisible task answers exactly like an unknown one).
 */
final class TaskStore {
  private static final String CURSOR_PREFIX = "after:";

  private final ReferenceServerOptions options;
  private final Clock clock;
  private final ScheduledExecutorService scheduler;
  private final AtomicLong sequence = new AtomicLong();
  /** Keyed by creation sequence so that tasks/list pages are stable while tasks come and go. */
  private final ConcurrentSkipListMap<Long, TaskRecord> bySequence = new ConcurrentSkipListMap<>();
  private final Map<String, TaskRecord> byId = new ConcurrentHashMap<>();
  /** Ids deleted at ttl expiry, so that 2026 lookups can answer "Task has expired" rather than "not found". */
  private final Set<String> expiredIds = ConcurrentHashMap.newKeySet();

  TaskStore(ReferenceServerOptions options, Clock clock, ScheduledExecutorService scheduler) {
    this.options = options;
    this.clock = clock;
    this.scheduler = scheduler;
  }

  /** Current time at millisecond precision, the precision of the wire timestamps. */
  Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  long nowMs() {
    return clock.millis();
  }

  TaskRecord create(TaskRecord.Kind kind, String sessionId, TaskBehaviour behaviour, Long requestedTtl,
      String statusMessage, Consumer<TaskRecord> listener) {
    long ttl = options.effectiveTtl(requestedTtl);
    String id = (kind == TaskRecord.Kind.JOB ? "job-" : "") + UUID.randomUUID().toString().replace("-", "");
    TaskRecord record = new TaskRecord(id, kind, sessionId, sequence.incrementAndGet(), behaviour, now(), ttl,
        options.pollIntervalMs(), statusMessage, listener);
    byId.put(id, record);
    bySequence.put(record.sequence(), record);
    // Retention counts from creation whatever the status, as the spec allows ("MAY delete after createdAt + ttl").
    scheduler.schedule(() -> expire(record), ttl, TimeUnit.MILLISECONDS);
    return record;
  }

  /** The record {@code id} of {@code kind} if it exists and {@code sessionId} may see it. */
  Optional<TaskRecord> find(String id, TaskRecord.Kind kind, String sessionId) {
    TaskRecord record = id == null ? null : byId.get(id);
    if (record == null || record.kind() != kind || !visibleTo(record, sessionId)) {
      return Optional.empty();
    }
    return Optional.of(record);
  }

  /**
   * The task {@code id} for a 2026-07-28 request: an extension task or a 2025 task (SEP-2663), whatever the session,
   * since 2026 has none. -32602 "Failed to retrieve task: Task not found" or "...: Task has expired" otherwise.
   */
  TaskRecord findFor2026(String id) {
    TaskRecord record = byId.get(id);
    if (record != null && record.kind() != TaskRecord.Kind.JOB) {
      return record;
    }
    throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Failed to retrieve task: "
        + (expiredIds.contains(id) ? "Task has expired" : "Task not found"));
  }

  /** One page of the tasks visible to {@code sessionId}, in creation order. */
  Page list(String sessionId, String cursor) {
    long after = decodeCursor(cursor);
    List<TaskRecord> page = new ArrayList<>();
    boolean more = false;
    for (TaskRecord record : bySequence.tailMap(after, false).values()) {
      if (record.kind() != TaskRecord.Kind.TASK || !visibleTo(record, sessionId)) {
        continue;
      }
      if (page.size() == options.listPageSize()) {
        more = true;
        break;
      }
      page.add(record);
    }
    String next = more ? encodeCursor(page.get(page.size() - 1).sequence()) : null;
    return new Page(page, next);
  }

  /** A tasks/list page and the cursor of the next one (null on the last page). */
  record Page(List<TaskRecord> tasks, String nextCursor) {}

  private boolean visibleTo(TaskRecord record, String sessionId) {
    return !options.sessionScoped() || record.sessionId().equals(sessionId);
  }

  private void expire(TaskRecord record) {
    expiredIds.add(record.id());
    byId.remove(record.id());
    bySequence.remove(record.sequence());
    record.expired();
  }

  private static String encodeCursor(long sequence) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString((CURSOR_PREFIX + sequence).getBytes(StandardCharsets.UTF_8));
  }

  private static long decodeCursor(String cursor) {
    if (cursor == null) {
      return 0;
    }
    try {
      String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (decoded.startsWith(CURSOR_PREFIX)) {
        return Long.parseLong(decoded.substring(CURSOR_PREFIX.length()));
      }
    } catch (IllegalArgumentException e) {
      // falls through to the typed error below; NumberFormatException is an IllegalArgumentException
    }
    throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Failed to list tasks: Invalid cursor: " + cursor);
  }
}
