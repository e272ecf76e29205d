package dev.mcptasks.app.config;

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
}
