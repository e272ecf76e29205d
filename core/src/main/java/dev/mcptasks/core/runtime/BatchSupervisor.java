package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every control operation of one worker from launch until it actually settles: its remote call, heartbeat and
 * renewal cleanup. Once an operation's claim has ended (last write, ownership loss or cancellation), its children
 * get a bounded drain; what has not settled by then stays here in the background, strongly referenced, its failure
 * logged once. Unsettled operations keep their capacity slot and their row is excluded from this worker's claims.
 * Cancelling the batch (shutdown) gives every claim up exactly once and keeps the first cancellation's cause.
 */
final class BatchSupervisor {
    private static final Logger LOG = LoggerFactory.getLogger(BatchSupervisor.class);

    private final Set<ControlOperation> live = ConcurrentHashMap.newKeySet();
    private final Set<ControlOperation> background = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> cancelCause = new AtomicReference<>();
    private final Clock clock;
    private final Duration drain;
    private final CapacitySlots slots;
    private final PrincipalShares shares;
    private final RuntimeListener listener;
    private final RuntimeCounters counters;

    BatchSupervisor(Clock clock, Duration drain, CapacitySlots slots, RuntimeListener listener,
            RuntimeCounters counters) {
        this(clock, drain, slots, new PrincipalShares(PrincipalShares.of(slots.capacity())), listener, counters);
    }

    /** @param shares counts each operation's slot against its principal's share, from launch until it settles */
    BatchSupervisor(Clock clock, Duration drain, CapacitySlots slots, PrincipalShares shares,
            RuntimeListener listener, RuntimeCounters counters) {
        this.shares = shares;
        this.clock = clock;
        this.drain = drain;
        this.slots = slots;
        this.listener = listener;
        this.counters = counters;
    }

    /** Takes ownership of an operation that holds one reserved slot, and starts it. */
    void launch(ControlOperation operation) {
        shares.take(operation.principal());
        live.add(operation);
        operation.finished().whenComplete((ignored, error) -> drainAfterEnd(operation));
        operation.settled().whenComplete((ignored, error) -> {
            live.remove(operation);
            background.remove(operation);
            slots.release(1);
            shares.release(operation.principal());
            if (error != null) {
                LOG.warn("task {}: cleanup of the control operation failed", operation.taskId(), error);
            }
            listener.operationSettled(operation.taskId());
        });
        String cause = cancelCause.get();
        if (cause != null) {
            operation.cancel(cause);
        }
        operation.start();
    }

    /** Rows of operations that have not settled: this worker must not claim them again yet. */
    Set<TaskId> unsettled() {
        return live.stream().map(ControlOperation::taskId).collect(Collectors.toUnmodifiableSet());
    }

    int backgroundCount() {
        return background.size();
    }

    Optional<String> cancelCause() {
        return Optional.ofNullable(cancelCause.get());
    }

    /**
     * Gives every live claim up (shutdown). Only the first call's cause is kept; each claim is released at most
     * once however often this is called. Completes when every claim has ended or the drain bound passed.
     */
    CompletableFuture<Void> cancel(String cause) {
        cancelCause.compareAndSet(null, cause);
        String first = cancelCause.get();
        List<ControlOperation> current = List.copyOf(live);
        current.forEach(operation -> operation.cancel(first));
        return bounded(current.stream().map(ControlOperation::finished).toList());
    }

    /** Completes when every live operation's claim has ended, or after the drain bound. */
    CompletableFuture<Void> awaitEnded() {
        return bounded(List.copyOf(live).stream().map(ControlOperation::finished).toList());
    }

    private CompletableFuture<Void> bounded(List<CompletableFuture<Void>> futures) {
        CompletableFuture<Void> all = CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
        CompletableFuture<Void> result = new CompletableFuture<>();
        Clock.Timer timer = clock.schedule(drain, () -> result.complete(null));
        all.whenComplete((ignored, error) -> {
            timer.cancel();
            result.complete(null);
        });
        return result;
    }

    /** The bounded drain after a claim ended: children still running by then move to background cleanup. */
    private void drainAfterEnd(ControlOperation operation) {
        if (operation.settled().isDone()) {
            return;
        }
        Clock.Timer timer = clock.schedule(drain, () -> {
            if (!operation.settled().isDone() && live.contains(operation) && background.add(operation)) {
                counters.backgroundCleanups.incrementAndGet();
                LOG.warn("task {}: the control call has not settled {} after its claim ended ({}); it keeps its"
                        + " slot and finishes in the background", operation.taskId(), drain,
                        operation.lossCause().orElse("completed"));
                listener.movedToBackground(operation.taskId());
            }
        });
        operation.settled().whenComplete((ignored, error) -> timer.cancel());
    }
}
