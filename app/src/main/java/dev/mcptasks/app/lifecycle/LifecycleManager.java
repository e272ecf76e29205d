package dev.mcptasks.app.lifecycle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts components in the order they were added and stops only those that started, in reverse order. A failing
 * stop is logged and the remaining components are still stopped, so one broken component never leaves the others
 * (a worker row, a connection pool, a child process) running. Modelled on Gerrit's {@code LifecycleManager}.
 */
public final class LifecycleManager {
    private static final Logger LOG = LoggerFactory.getLogger(LifecycleManager.class);

    private final List<Named> components = new ArrayList<>();
    /** The components that started, most recent first: exactly the ones {@link #stop()} must stop. */
    private final Deque<Named> started = new ArrayDeque<>();
    private State state = State.NEW;

    private enum State { NEW, STARTED, STOPPED }

    private record Named(String name, LifecycleListener listener) {}

    /** Adds a component; it starts after every component added before it and stops before them. */
    public synchronized LifecycleManager add(String name, LifecycleListener listener) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(listener, "listener");
        if (state != State.NEW) {
            throw new IllegalStateException("cannot add " + name + ": the lifecycle was already started");
        }
        components.add(new Named(name, listener));
        return this;
    }

    /**
     * Starts every component in order. When one fails, the ones already started are stopped in reverse and a
     * {@link LifecycleException} naming the failed component is thrown (stop failures are attached as suppressed).
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("the lifecycle can be started once; it is " + state);
        }
        state = State.STARTED;
        for (Named component : components) {
            try {
                component.listener().start();
            } catch (Exception | Error e) {
                LifecycleException failure = new LifecycleException(component.name(), e);
                stopStarted().forEach(failure::addSuppressed);
                state = State.STOPPED;
                throw failure;
            }
            started.push(component);
        }
    }

    /**
     * Stops every started component in reverse order, logging and continuing past failures. Safe to call more than
     * once and before {@link #start()}; returns the failures in the order they happened.
     */
    public synchronized List<Exception> stop() {
        state = State.STOPPED;
        return stopStarted();
    }

    private List<Exception> stopStarted() {
        List<Exception> failures = new ArrayList<>();
        while (!started.isEmpty()) {
            Named component = started.pop();
            try {
                component.listener().stop();
            } catch (Exception e) {
                LOG.warn("stopping {} failed; stopping the others anyway", component.name(), e);
                failures.add(e);
            }
        }
        return failures;
    }
}
