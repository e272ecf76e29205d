package dev.mcptasks.ports.repository;

import java.util.function.Supplier;

/** A store scope that forwards every call to {@link #delegate()}: a decorator overrides only what it watches. */
public interface ForwardingStoreScope extends StoreScope {
    /** The scope the next call goes to. */
    StoreScope delegate();

    @Override
    default <T> T inOneTransaction(Supplier<T> work) {
        return delegate().inOneTransaction(work);
    }

    @Override
    default WorkSubscription onWorkArrival(Runnable listener) {
        return delegate().onWorkArrival(listener);
    }

    @Override
    default WorkSubscription onForeignChange(TaskChangeListener listener) {
        return delegate().onForeignChange(listener);
    }
}
