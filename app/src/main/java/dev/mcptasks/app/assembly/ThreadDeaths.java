package dev.mcptasks.app.assembly;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** The first internal thread of this process that died of an error, for {@code /healthz}; set once. */
public final class ThreadDeaths {
    private final AtomicReference<String> first = new AtomicReference<>();

    /** Records the death; false when one was already recorded. */
    public boolean record(Thread thread, Throwable error) {
        return first.compareAndSet(null, "internal thread '" + thread.getName() + "' died of " + error);
    }

    public Optional<String> first() {
        return Optional.ofNullable(first.get());
    }
}
