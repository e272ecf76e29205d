package dev.mcptasks.app.config;

import dev.mcptasks.core.runtime.RuntimeSettings;
import java.time.Duration;

/**
 * The {@code runtime} section: lease, polling, capacity, backoff, degradation, result size, drain, worker
 * staleness, notification and tick settings, in the units the file uses (seconds, milliseconds and bytes). Ranges are checked by {@link ConfigLoader}.
 *
 * @param workerStaleAfterSeconds a worker whose last heartbeat is older than this, by the store's clock, is taken
 *     for dead: another worker may then take over the tasks of its process-local endpoints (it heartbeats every
 *     third of it)
 * @param notificationTimeoutSeconds how long one call of the notification sink may take before it counts as a failed
 *     delivery attempt (retried with backoff)
 * @param tickMillis the idle tick of the control loop ({@code runtime.tickMillis}, 10..60000, default 1000). New
 *     work does not wait for it: a task created, a cancel requested or an answer stored wakes the workers through
 *     the store, and a scan that filled its slots continues as they free up. The tick finds work due by time alone
 *     (a poll's next due time, a retry after backoff, a notification retry, another worker's expired lease), so it
 *     bounds how late such work starts; a shorter tick costs one scan per phase per tick on an idle worker
 */
public record RuntimeConfig(int leaseSeconds, int pollIntervalSeconds, int maxConcurrentControlCalls,
        int maxBackoffSeconds, int inputRequiredPollSeconds, int degradedAfterErrors, long maxResultBytes,
        int drainSeconds, int workerStaleAfterSeconds, int notificationTimeoutSeconds, int tickMillis) {

    public static final long DEFAULT_MAX_RESULT_BYTES = 8L * 1024 * 1024;
    public static final int DEFAULT_WORKER_STALE_AFTER_SECONDS = 30;
    public static final int DEFAULT_NOTIFICATION_TIMEOUT_SECONDS =
            (int) RuntimeSettings.DEFAULT_SINK_TIMEOUT.toSeconds();
    public static final int DEFAULT_TICK_MILLIS = (int) RuntimeSettings.defaults().tickInterval().toMillis();

    /** The same settings with the default tick. */
    public RuntimeConfig(int leaseSeconds, int pollIntervalSeconds, int maxConcurrentControlCalls,
            int maxBackoffSeconds, int inputRequiredPollSeconds, int degradedAfterErrors, long maxResultBytes,
            int drainSeconds, int workerStaleAfterSeconds, int notificationTimeoutSeconds) {
        this(leaseSeconds, pollIntervalSeconds, maxConcurrentControlCalls, maxBackoffSeconds, inputRequiredPollSeconds,
                degradedAfterErrors, maxResultBytes, drainSeconds, workerStaleAfterSeconds,
                notificationTimeoutSeconds, DEFAULT_TICK_MILLIS);
    }

    public static RuntimeConfig defaults() {
        return new RuntimeConfig(120, 5, RuntimeSettings.DEFAULT_SLOTS, 300, 60, 3, DEFAULT_MAX_RESULT_BYTES, 5,
                DEFAULT_WORKER_STALE_AFTER_SECONDS, DEFAULT_NOTIFICATION_TIMEOUT_SECONDS, DEFAULT_TICK_MILLIS);
    }

    /** The runtime's settings. */
    public RuntimeSettings toSettings() {
        return new RuntimeSettings(Duration.ofSeconds(leaseSeconds), Duration.ofSeconds(pollIntervalSeconds),
                maxConcurrentControlCalls, Duration.ofSeconds(maxBackoffSeconds),
                Duration.ofSeconds(inputRequiredPollSeconds), degradedAfterErrors, maxResultBytes,
                Duration.ofSeconds(drainSeconds), Duration.ofMillis(tickMillis),
                Duration.ofSeconds(workerStaleAfterSeconds), Duration.ofSeconds(notificationTimeoutSeconds));
    }
}
