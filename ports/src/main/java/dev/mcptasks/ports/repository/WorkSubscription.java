package dev.mcptasks.ports.repository;

/** A registration made with {@link TaskRepository#onWorkArrival}; closing it stops the calls. Idempotent. */
@FunctionalInterface
public interface WorkSubscription extends AutoCloseable {
    /** A subscription that was never connected to anything (a store that cannot signal). */
    WorkSubscription NONE = () -> { };

    @Override
    void close();
}
