package dev.mcptasks.app.config;

import dev.mcptasks.app.runtime.RuntimeSettings;
import java.time.Duration;

/**
 * The {@code runtime} section: lease, polling, capacity, backoff, degradation, result size, drain and worker
 * staleness settings, in the units the file uses (seconds and bytes). Ranges are checked by {@link ConfigLoader}.
 *
 * @param workerStaleAfterSeconds a worker whose last heartbeat is older than this, by the store's clock, is taken
 *     for dead: another worker may then take over the tasks of its process-local endpoints (it heartbeats every
 *     third of it)
 */
public record RuntimeConfig(int leaseSeconds, int pollIntervalSeconds, int maxConcurrentControlCalls,
        int maxBackoffSeconds, int inputRequiredPollSeconds, int degradedAfterErrors, long maxResultBytes,
        int drainSeconds, int workerStaleAfterSeconds) {

    public static final long DEFAULT_MAX_RESULT_BYTES = 8L * 1024 * 1024;
    public static final int DEFAULT_WORKER_STALE_AFTER_SECONDS = 30;

    public static RuntimeConfig defaults() {
        return new RuntimeConfig(120, 5, 8, 300, 60, 3, DEFAULT_MAX_RESULT_BYTES, 5,
                DEFAULT_WORKER_STALE_AFTER_SECONDS);
    }

    /** The runtime's settings; the tick interval keeps the runtime's default. */
    public RuntimeSettings toSettings() {
        RuntimeSettings defaults = RuntimeSettings.defaults();
        return new RuntimeSettings(Duration.ofSeconds(leaseSeconds), Duration.ofSeconds(pollIntervalSeconds),
                maxConcurrentControlCalls, Duration.ofSeconds(maxBackoffSeconds),
                Duration.ofSeconds(inputRequiredPollSeconds), degradedAfterErrors, maxResultBytes,
                Duration.ofSeconds(drainSeconds), defaults.tickInterval(), Duration.ofSeconds(workerStaleAfterSeconds));
    }
}
