package dev.mcptasks.app.lifecycle;

/** A component with a start and a stop, managed by {@link LifecycleManager}. */
public interface LifecycleListener {
    /** Starts the component; on failure it must leave nothing running that {@link #stop()} would not stop. */
    void start() throws Exception;

    /** Stops the component; called only after {@link #start()} returned normally. */
    void stop() throws Exception;

    /** A component that needs no start, only a close (a connection pool, an executor). */
    static LifecycleListener closing(AutoCloseable resource) {
        return new LifecycleListener() {
            @Override
            public void start() {}

            @Override
            public void stop() throws Exception {
                resource.close();
            }
        };
    }
}
