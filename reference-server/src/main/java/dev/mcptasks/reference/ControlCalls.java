package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Answers control calls about a task (get, result, cancel and their job equivalents) the way the task's behaviour
 * asks: at once, after a delay, or never; and records each call's interval in the {@link ControlCallLog}.
 */
final class ControlCalls {
  private final TaskStore store;
  private final ControlCallLog log;
  private final ScheduledExecutorService scheduler;
  private final CallJournal journal;

  ControlCalls(TaskStore store, ControlCallLog log, ScheduledExecutorService scheduler, CallJournal journal) {
    this.store = store;
    this.log = log;
    this.scheduler = scheduler;
    this.journal = journal;
  }

  /**
   * Computes the answer with {@code answer} after {@code delayMs}, or never when {@code hang}; the answer is computed
   * when it is sent, so it reflects the task's state at that moment.
   */
  <T> CompletableFuture<T> answer(TaskRecord record, String method, ClientSession session, long delayMs, boolean hang,
      Supplier<CompletableFuture<T>> answer) {
    return answer(record, method, session, delayMs, hang, generationOf(record), answer);
  }

  /** {@link #answer} for a call made on protocol {@code generation} (journaled when not 2025-11-25). */
  <T> CompletableFuture<T> answer(TaskRecord record, String method, ClientSession session, long delayMs, boolean hang,
      String generation, Supplier<CompletableFuture<T>> answer) {
    ControlCallLog.Ticket ticket = log.begin(record.id(), method, session.id(), store.nowMs());
    long call = journal.begin(record.id(), method, session.id(), generation);
    CompletableFuture<T> reply;
    if (hang) {
      reply = new CompletableFuture<>();
    } else if (delayMs > 0) {
      reply = new CompletableFuture<>();
      scheduler.schedule(() -> relay(answer, reply), delayMs, TimeUnit.MILLISECONDS);
    } else {
      reply = invoke(answer);
    }
    // The returned stage runs after the end is recorded, so the caller writes the answer only once the call's
    // interval is closed: a client that has its answer always sees a closed interval in stats.
    return reply.whenComplete((value, failure) -> {
      journal.end(call, value, failure);
      log.end(ticket, store.nowMs());
    });
  }

  /**
   * Journals the creation of {@code record} from {@code arguments}, and its terminal status and result once it has
   * one (a record deleted at ttl expiry before it ended has no terminal line).
   */
  void created(TaskRecord record, ClientSession session, JsonNode arguments) {
    journal.created(record.id(), record.kind().name().toLowerCase(Locale.ROOT), session.id(), arguments,
        generationOf(record));
    record.terminal().thenAccept(status -> journal.terminal(record.id(), status, record.result()));
  }

  /** Records a call that was answered at once, such as the {@code tools/call} that created the task. */
  void recordInstant(TaskRecord record, String method, ClientSession session) {
    long now = store.nowMs();
    journal.end(journal.begin(record.id(), method, session.id(), generationOf(record)), null, null);
    log.end(log.begin(record.id(), method, session.id(), now), now);
  }

  /** The generation a record's calls are made on when the caller does not say: 2026 for extension tasks. */
  private static String generationOf(TaskRecord record) {
    return record.kind() == TaskRecord.Kind.EXTENSION_TASK ? Envelope.VERSION : null;
  }

  private static <T> void relay(Supplier<CompletableFuture<T>> answer, CompletableFuture<T> reply) {
    invoke(answer).whenComplete((value, failure) -> {
      if (failure != null) {
        reply.completeExceptionally(failure);
      } else {
        reply.complete(value);
      }
    });
  }

  private static <T> CompletableFuture<T> invoke(Supplier<CompletableFuture<T>> answer) {
    try {
      return answer.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
