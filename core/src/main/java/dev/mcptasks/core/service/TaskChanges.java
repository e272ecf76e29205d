package dev.mcptasks.core.service;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where readers that wait on task rows (the gateway's held calls and followed tasks) learn that rows changed: this
 * process's worker {@linkplain #announce announces} each committed change with its task id, and the store tells of
 * other processes' commits ({@link TaskRepository#onForeignChange}) while anyone listens. A reader re-reads what it
 * waits on when told, and keeps a slow poll only as a safety net.
 */
public final class TaskChanges {
    private static final Logger LOG = LoggerFactory.getLogger(TaskChanges.class);

    private final TaskRepository repository;
    private final List<TaskChangeListener> listeners = new CopyOnWriteArrayList<>();
    /** The readers of a direct call's live progress, by task. */
    private final Map<TaskId, List<Consumer<CallProgress>>> progress = new ConcurrentHashMap<>();
    private WorkSubscription foreign; // guarded by this

    public TaskChanges(TaskRepository repository) {
        this.repository = Objects.requireNonNull(repository, "repository");
    }

    /** A committed write of this process changed {@code id}; tells every listener, on the caller's thread. */
    public void announce(TaskId id) {
        for (TaskChangeListener listener : listeners) {
            try {
                listener.changed(id);
            } catch (RuntimeException e) {
                LOG.warn("a task-change listener failed", e);
            }
        }
    }

    /**
     * This process's worker heard progress of a direct call of {@code id}, before it is stored (the store keeps one
     * message a second): tells the task's progress readers at once, on the caller's (a transport's) thread.
     */
    public void progressed(TaskId id, CallProgress report) {
        for (Consumer<CallProgress> listener : progress.getOrDefault(id, List.of())) {
            try {
                listener.accept(report);
            } catch (RuntimeException e) {
                LOG.warn("a progress listener failed", e);
            }
        }
    }

    /**
     * Listens to the live progress of {@code id}'s direct call, as this process's worker hears it (a call driven by
     * another process's worker tells nothing here), until the subscription is closed.
     */
    public WorkSubscription onProgress(TaskId id, Consumer<CallProgress> listener) {
        Objects.requireNonNull(listener, "listener");
        progress.computeIfAbsent(id, key -> new CopyOnWriteArrayList<>()).add(listener);
        return () -> progress.computeIfPresent(id, (key, list) -> {
            list.remove(listener);
            return list.isEmpty() ? null : list;
        });
    }

    /** Adds {@code listener}; the first one also starts listening to the store for other processes' commits. */
    public WorkSubscription subscribe(TaskChangeListener listener) {
        Objects.requireNonNull(listener, "listener");
        TaskChangeListener entry = TaskChangeListener.forwardingTo(listener);
        synchronized (this) {
            listeners.add(entry);
            if (foreign == null) {
                foreign = repository.onForeignChange(new TaskChangeListener() {
                    @Override
                    public void changed(TaskId id) {
                        announce(id);
                    }

                    @Override
                    public void changedSomewhere() {
                        somewhere();
                    }
                });
            }
        }
        return () -> unsubscribe(entry);
    }

    private void somewhere() {
        for (TaskChangeListener listener : listeners) {
            try {
                listener.changedSomewhere();
            } catch (RuntimeException e) {
                LOG.warn("a task-change listener failed", e);
            }
        }
    }

    private void unsubscribe(TaskChangeListener entry) {
        WorkSubscription stopped = null;
        synchronized (this) {
            if (listeners.remove(entry) && listeners.isEmpty()) {
                stopped = foreign;
                foreign = null;
            }
        }
        if (stopped != null) {
            stopped.close();
        }
    }
}
