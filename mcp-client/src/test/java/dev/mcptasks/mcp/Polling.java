package dev.mcptasks.mcp;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Polls a real server's task to a terminal status the way the runtime does: the next status read waits the
 * server's {@code pollAfter} hint (pacing a live server, not synchronizing the test), bounded by a deadline.
 */
final class Polling {
    private Polling() {}

    static RemoteTaskSnapshot untilTerminal(TaskDriver driver, RemoteTaskRef ref, Duration deadline)
            throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            RemoteTaskSnapshot snapshot = driver.status(ref).get(30, TimeUnit.SECONDS);
            if (snapshot.status().isTerminal()) {
                return snapshot;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("task " + ref.remoteTaskId() + " still " + snapshot.status() + " after "
                        + deadline);
            }
            long waitMs = snapshot.pollAfter() == null ? 200 : Math.max(20, snapshot.pollAfter().toMillis());
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS))
                    .get(30, TimeUnit.SECONDS);
        }
    }
}
