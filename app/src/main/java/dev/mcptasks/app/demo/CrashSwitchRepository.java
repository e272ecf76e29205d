package dev.mcptasks.app.demo;

import dev.mcptasks.ports.repository.ForwardingTaskRepository;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRepository;

/**
 * The store as one worker sees it. After {@link #crash()} every call fails, as if the worker's process had died:
 * nothing it still tries to write (results, renewals, releases, heartbeats) reaches the store.
 */
final class CrashSwitchRepository extends ForwardingTaskRepository {
    private final TaskRepository store;
    private volatile boolean crashed;

    CrashSwitchRepository(TaskRepository store) {
        this.store = store;
    }

    void crash() {
        crashed = true;
    }

    @Override
    protected TaskRepository delegate() {
        if (crashed) {
            throw new RepositoryUnavailableException("this worker crashed", null);
        }
        return store;
    }
}
