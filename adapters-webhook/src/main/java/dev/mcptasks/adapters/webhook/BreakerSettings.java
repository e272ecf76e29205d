package dev.mcptasks.adapters.webhook;

import java.time.Duration;
import java.util.Objects;

/**
 * The circuit breaker of a webhook endpoint: it opens when at least {@code failureRatePercent} of the last
 * {@code minimumCalls} answered deliveries failed (a count-based window of that size), refuses deliveries for
 * {@code openWait}, then lets one trial delivery through (half-open) whose outcome closes or reopens it.
 *
 * @param failureRatePercent the failure rate, in percent (above 0, at most 100), that opens the breaker
 * @param minimumCalls the number of answered deliveries the rate is computed over (at least 1)
 * @param openWait how long an open breaker refuses deliveries before its trial
 */
public record BreakerSettings(float failureRatePercent, int minimumCalls, Duration openWait) {
    public BreakerSettings {
        if (!(failureRatePercent > 0 && failureRatePercent <= 100)) {
            throw new IllegalArgumentException("breaker.failureRatePercent: must be above 0 and at most 100, was "
                    + failureRatePercent);
        }
        if (minimumCalls < 1) {
            throw new IllegalArgumentException("breaker.minimumCalls: must be at least 1, was " + minimumCalls);
        }
        Objects.requireNonNull(openWait, "breaker.openWait: missing");
        if (openWait.isNegative() || openWait.isZero()) {
            throw new IllegalArgumentException("breaker.openWait: must be positive, was " + openWait);
        }
    }

    /** 50 % of the last 5 answered deliveries, open for 60 s. */
    public static BreakerSettings defaults() {
        return new BreakerSettings(50, 5, Duration.ofSeconds(60));
    }
}
