package dev.mcptasks.ports.repository;

import java.util.Objects;
import java.util.function.Supplier;

/** A store scope that forwards every call to {@link #delegate()}: a decorator overrides only what it watches. */
public abstract class ForwardingStoreScope implements StoreScope {
    private final StoreScope delegate;

    protected ForwardingStoreScope(StoreScope delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The scope the next call goes to. */
    protected StoreScope delegate() {
        return delegate;
    }

    @Override
    public <T> T inOneTransaction(Supplier<T> work) {
        return delegate().inOneTransaction(work);
    }

    @Override
    public WorkSubscription onWorkArrival(Runnable listener) {
        return delegate().onWorkArrival(listener);
    }

    @Override
    public WorkSubscription onForeignChange(TaskChangeListener listener) {
        return delegate().onForeignChange(listener);
    }
}
