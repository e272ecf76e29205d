package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** A worker registry that forwards every call to {@link #delegate()}: a decorator overrides only what it watches. */
public abstract class ForwardingWorkerRegistry implements WorkerRegistry {
    private final WorkerRegistry delegate;

    protected ForwardingWorkerRegistry(WorkerRegistry delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The registry the next call goes to. */
    protected WorkerRegistry delegate() {
        return delegate;
    }

    @Override
    public void heartbeat(WorkerInfo worker) {
        delegate().heartbeat(worker);
    }

    @Override
    public boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return delegate().isWorkerAlive(worker, staleAfter);
    }

    @Override
    public void removeWorker(WorkerId worker) {
        delegate().removeWorker(worker);
    }

    @Override
    public List<WorkerRecord> workers() {
        return delegate().workers();
    }
}
