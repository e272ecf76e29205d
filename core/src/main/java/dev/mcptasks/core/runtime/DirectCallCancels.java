package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct calls in flight on this worker, and how a user's cancel request reaches them. A direct call holds its
 * submit claim for the whole tool call, and a cancel request leaves a submit lease alone (the store must still take
 * what the call returns), so no cancel claim can take the row while the call runs: the worker holding it has to
 * notice. Every pass that scans for cancellations first reads the rows of the calls in flight here (one read by
 * primary key each, nothing when none is in flight) and tells the holder of each row whose cancel was requested. A
 * pass runs on every work arrival (a cancel request is one, from any process) and at least every tick, so a cancel
 * reaches its call within a tick. The holder then cancels its call and ends the task with its own fenced write.
 */
final class DirectCallCancels {
    private static final Logger LOG = LoggerFactory.getLogger(DirectCallCancels.class);

    private final TaskRepository repository;
    /** The holder to tell, per task: a worker holds at most one claim of a row at a time. */
    private final Map<TaskId, Runnable> inFlight = new ConcurrentHashMap<>();

    DirectCallCancels(TaskRepository repository) {
        this.repository = repository;
    }

    /** A direct call that stops watching; idempotent. */
    interface Watch {
        void stop();
    }

    /** Calls {@code onCancelRequested} once, from a pass, if a cancel of {@code id} is requested before the stop. */
    Watch watch(TaskId id, Runnable onCancelRequested) {
        inFlight.put(id, onCancelRequested);
        return () -> inFlight.remove(id, onCancelRequested);
    }

    int size() {
        return inFlight.size();
    }

    /** Reads the row of every call in flight and tells the holders of those whose cancel was requested. */
    void check() {
        inFlight.forEach((id, holder) -> {
            Optional<TaskRecord> row;
            try {
                row = repository.find(id);
            } catch (RuntimeException e) {
                LOG.warn("task {}: could not read whether its cancel was requested; the next pass tries again: {}", id,
                        e.toString());
                return;
            }
            // a row that is gone or already terminal has nothing left to cancel; its holder ends on its own
            if (row.isPresent() && row.get().control().cancelRequestedAt() != null
                    && !row.get().status().isTerminal() && inFlight.remove(id, holder)) {
                try {
                    holder.run();
                } catch (RuntimeException e) {
                    LOG.warn("task {}: stopping its direct call failed: {}", id, e.toString());
                }
            }
        });
    }
}
