package dev.mcptasks.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/** An executor that queues tasks while held, modelling a worker whose operations wait for admission. */
final class HoldingExecutor implements Executor {
    private final Executor delegate;
    private final List<Runnable> held = new ArrayList<>();
    private boolean holding;

    HoldingExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    synchronized void hold() {
        holding = true;
    }

    synchronized int heldTasks() {
        return held.size();
    }

    void release() {
        List<Runnable> queued;
        synchronized (this) {
            holding = false;
            queued = List.copyOf(held);
            held.clear();
        }
        queued.forEach(delegate::execute);
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (holding) {
                held.add(task);
                return;
            }
        }
        delegate.execute(task);
    }
}
