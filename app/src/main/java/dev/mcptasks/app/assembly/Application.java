package dev.mcptasks.app.assembly;

import com.google.inject.Injector;
import com.google.inject.Key;
import dev.mcptasks.app.lifecycle.LifecycleListener;
import dev.mcptasks.app.lifecycle.LifecycleManager;
import dev.mcptasks.app.tracing.ProcessTracing;
import dev.mcptasks.core.system.SystemClock;
import dev.mcptasks.ports.repository.CloseableTaskRepository;

/**
 * One assembled process: the injector and the lifecycle of what it opened (the task store, the timer thread).
 * Closing it stops those in reverse order of opening.
 */
public final class Application implements AutoCloseable {
    private final Injector injector;
    private final LifecycleManager resources = new LifecycleManager();

    Application(Injector injector) {
        this.injector = injector;
        // Added first so it stops last: whatever stops before it (a draining runtime) may still need its timers.
        if (injector.getExistingBinding(Key.get(SystemClock.class)) != null) {
            resources.add("clock", LifecycleListener.closing(injector.getInstance(SystemClock.class)));
        }
        // stops after the task store (and whatever drained before it), so the spans of the last writes are flushed
        if (injector.getExistingBinding(Key.get(ProcessTracing.class)) != null) {
            resources.add("tracing", LifecycleListener.closing(injector.getInstance(ProcessTracing.class)));
        }
        if (injector.getExistingBinding(Key.get(CloseableTaskRepository.class)) != null) {
            resources.add("task store", LifecycleListener.closing(injector.getInstance(CloseableTaskRepository.class)));
        }
        resources.start();
    }

    public <T> T get(Class<T> type) {
        return injector.getInstance(type);
    }

    public Injector injector() {
        return injector;
    }

    @Override
    public void close() {
        resources.stop();
    }
}
