package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.List;

/** A worker registry that forwards every call to {@link #delegate()}: a decorator overrides only what it watches. */
public interface ForwardingWorkerRegistry extends WorkerRegistry {
    /** The registry the next call goes to. */
    WorkerRegistry delegate();

    @Override
    default void heartbeat(WorkerInfo worker) {
        delegate().heartbeat(worker);
    }

    @Override
    default boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return delegate().isWorkerAlive(worker, staleAfter);
    }

    @Override
    default void removeWorker(WorkerId worker) {
        delegate().removeWorker(worker);
    }

    @Override
    default List<WorkerRecord> workers() {
        return delegate().workers();
    }
}
