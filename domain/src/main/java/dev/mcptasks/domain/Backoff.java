package dev.mcptasks.domain;

import java.time.Duration;

/** Exponential backoff after failures: min(base x 2^min(n,16), cap). */
public final class Backoff {
    /** Caps the exponent so the multiplication cannot overflow whatever the failure count. */
    public static final int MAX_EXPONENT = 16;

    private Backoff() {}

    /**
     * @param base the poll interval
     * @param consecutiveFailures failures before this one (0 for the first failure)
     * @param cap the largest delay
     */
    public static Duration delay(Duration base, int consecutiveFailures, Duration cap) {
        if (base.isNegative() || cap.isNegative()) {
            throw new DomainException("backoff base and cap must not be negative");
        }
        int exponent = Math.max(0, Math.min(consecutiveFailures, MAX_EXPONENT));
        Duration raw = base.multipliedBy(1L << exponent);
        return raw.compareTo(cap) > 0 ? cap : raw;
    }
}
