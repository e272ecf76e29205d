package dev.mcptasks.app.config;

import dev.mcptasks.app.runtime.RuntimeSettings;
import java.time.Duration;

/**
 * The {@code runtime} section: lease, polling, capacity, backoff, degradation, result size and drain settings, in the
 * units the file uses (seconds and bytes). Ranges are checked by {@link ConfigLoader}.
 */
public record RuntimeConfig(int leaseSeconds, int pollIntervalSeconds, int maxConcurrentControlCalls,
        int maxBackoffSeconds, int inputRequiredPollSeconds, int degradedAfterErrors, long maxResultBytes,
        int drainSeconds) {

    public static final long DEFAULT_MAX_RESULT_BYTES = 8L * 1024 * 1024;

    public static RuntimeConfig defaults() {
        return new RuntimeConfig(120, 5, 8, 300, 60, 3, DEFAULT_MAX_RESULT_BYTES, 5);
    }

    /** The runtime's settings; the tick interval and the worker staleness bound keep the runtime's defaults. */
    public RuntimeSettings toSettings() {
        RuntimeSettings defaults = RuntimeSettings.defaults();
        return new RuntimeSettings(Duration.ofSeconds(leaseSeconds), Duration.ofSeconds(pollIntervalSeconds),
                maxConcurrentControlCalls, Duration.ofSeconds(maxBackoffSeconds),
                Duration.ofSeconds(inputRequiredPollSeconds), degradedAfterErrors, maxResultBytes,
                Duration.ofSeconds(drainSeconds), defaults.tickInterval(), defaults.workerStaleAfter());
    }
}
