package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;

/**
 * Told that task rows changed in a way a reader may be waiting for (a status, a result, a progress message, an input
 * request): a reader re-reads the rows it waits on instead of polling. Calls may be spurious and are coalesced; they
 * run on store or worker threads, so a listener must return at once and not throw.
 */
public interface TaskChangeListener {
    /** The row of {@code id} committed such a change (known precisely: this process wrote it). */
    void changed(TaskId id);

    /** Some rows may have changed, which ones is not known (another process committed): re-read every row. */
    void changedSomewhere();

    /**
     * A new listener that forwards to {@code listener}: what a subscription list holds, so that a listener subscribed
     * twice is two entries and each close removes its own.
     */
    static TaskChangeListener forwardingTo(TaskChangeListener listener) {
        return new TaskChangeListener() {
            @Override
            public void changed(TaskId id) {
                listener.changed(id);
            }

            @Override
            public void changedSomewhere() {
                listener.changedSomewhere();
            }
        };
    }
}
