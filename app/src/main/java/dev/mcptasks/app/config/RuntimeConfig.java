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
 * @param notificationTimeoutSeconds how long one call of the notification sink may take before it counts as a failed
 *     delivery attempt (retried with backoff)
 */
public record RuntimeConfig(int leaseSeconds, int pollIntervalSeconds, int maxConcurrentControlCalls,
        int maxBackoffSeconds, int inputRequiredPollSeconds, int degradedAfterErrors, long maxResultBytes,
        int drainSeconds, int workerStaleAfterSeconds, int notificationTimeoutSeconds) {

    public static final long DEFAULT_MAX_RESULT_BYTES = 8L * 1024 * 1024;
    public static final int DEFAULT_WORKER_STALE_AFTER_SECONDS = 30;
    public static final int DEFAULT_NOTIFICATION_TIMEOUT_SECONDS =
            (int) RuntimeSettings.DEFAULT_SINK_TIMEOUT.toSeconds();

    public static RuntimeConfig defaults() {
        return new RuntimeConfig(120, 5, 8, 300, 60, 3, DEFAULT_MAX_RESULT_BYTES, 5,
                DEFAULT_WORKER_STALE_AFTER_SECONDS, DEFAULT_NOTIFICATION_TIMEOUT_SECONDS);
    }

    /** The runtime's settings; the tick interval keeps the runtime's default. */
    public RuntimeSettings toSettings() {
        RuntimeSettings defaults = RuntimeSettings.defaults();
        return new RuntimeSettings(Duration.ofSeconds(leaseSeconds), Duration.ofSeconds(pollIntervalSeconds),
                maxConcurrentControlCalls, Duration.ofSeconds(maxBackoffSeconds),
                Duration.ofSeconds(inputRequiredPollSeconds), degradedAfterErrors, maxResultBytes,
                Duration.ofSeconds(drainSeconds), defaults.tickInterval(), Duration.ofSeconds(workerStaleAfterSeconds),
                Duration.ofSeconds(notificationTimeoutSeconds));
    }
}
