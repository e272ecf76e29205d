package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.List;

/**
 * The registry of live workers. Liveness is judged by the <i>store's</i> clock (the database's own now), never by a
 * worker's, so workers whose clocks disagree still agree on who is alive.
 */
public interface WorkerRegistry {
    /**
     * Registers the worker or refreshes its {@code last_seen_at} to the <i>store's</i> now (host, pid, start time stay
     * as first given). The worker's own clock never stamps a heartbeat.
     */
    void heartbeat(WorkerInfo worker);

    /**
     * Whether the worker is alive: it has a row whose {@code last_seen_at} is at or after the store's now minus
     * {@code staleAfter}. False for a worker that deregistered or never registered.
     */
    boolean isWorkerAlive(WorkerId worker, Duration staleAfter);

    /** Removes a worker that stopped cleanly. */
    void removeWorker(WorkerId worker);

    /** All registered workers, oldest ({@code started_at}, then id) first. */
    List<WorkerRecord> workers();
}
