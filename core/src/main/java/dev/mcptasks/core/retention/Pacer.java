package dev.mcptasks.core.retention;

import java.time.Duration;

/** Waits between two purge batches, so the store's writer (SQLite's one, PostgreSQL's I/O) goes to the claim path. */
@FunctionalInterface
public interface Pacer {
    /** No pause (tests, and a store with nothing else to do). */
    Pacer NONE = () -> {};

    void pause() throws InterruptedException;

    static Pacer sleeping(Duration pause) {
        return pause.isZero() ? NONE : () -> Thread.sleep(pause.toMillis());
    }
}
