package dev.mcptasks.reference;

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

  ControlCalls(TaskStore store, ControlCallLog log, ScheduledExecutorService scheduler) {
    this.store = store;
    this.log = log;
    this.scheduler = scheduler;
  }

  /**
   * Computes the answer with {@code answer} after {@code delayMs}, or never when {@code hang}; the answer is computed
   * when it is sent, so it reflects the task's state at that moment.
   */
  <T> CompletableFuture<T> answer(TaskRecord record, String method, ClientSession session, long delayMs, boolean hang,
      Supplier<CompletableFuture<T>> answer) {
    ControlCallLog.Ticket ticket = log.begin(record.id(), method, session.id(), store.nowMs());
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
    return reply.whenComplete((value, failure) -> log.end(ticket, store.nowMs()));
  }

  /** Records a call that was answered at once, such as the {@code tools/call} that created the task. */
  void recordInstant(TaskRecord record, String method, ClientSession session) {
    long now = store.nowMs();
    log.end(log.begin(record.id(), method, session.id(), now), now);
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
