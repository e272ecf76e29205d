package dev.mcptasks.domain;

import java.time.Duration;
import java.time.Instant;

/** Lease arithmetic shared by every repository and the heartbeat. */
public final class LeaseMath {
    private LeaseMath() {}

    /**
     * The expiry a renewal stores: never earlier than what is stored, so a backward step of the worker's clock
     * cannot shorten a lease that a peer may already be waiting on.
     */
    public static Instant renewedExpiry(Instant stored, Instant now, Duration lease) {
        Instant proposed = now.plus(lease);
        return stored != null && stored.isAfter(proposed) ? stored : proposed;
    }

    /** Renewals run every third of the lease, and each attempt may take at most that long. */
    public static Duration renewalInterval(Duration lease) {
        return part(lease, 3);
    }

    /**
     * {@code duration / parts}, truncated to the nanosecond as {@link Duration#dividedBy(long)} truncates, without
     * its BigDecimal arithmetic (which showed in a gateway's profile: every claim divides its lease). Durations
     * beyond 292 years overflow.
     */
    public static Duration part(Duration duration, long parts) {
        return Duration.ofNanos(duration.toNanos() / parts);
    }

    public static boolean isExpired(Instant expiresAt, Instant now) {
        return expiresAt == null || !expiresAt.isAfter(now);
    }
}
