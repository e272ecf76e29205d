package dev.mcptasks.testkit;

import dev.mcptasks.ports.repository.WorkSubscription;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The in-memory store's work-arrival listeners: called on the writing thread, after the write left the lock. */
final class WorkArrivals {
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    WorkSubscription subscribe(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    void signal() {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                // a listener must not throw; if one does, the write it signals has happened all the same
            }
        }
    }
}
