package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LeaseMathTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(120);

    @Test
    void renewalExtendsToNowPlusLease() {
        assertThat(LeaseMath.renewedExpiry(T0.plusSeconds(30), T0.plusSeconds(40), LEASE))
                .isEqualTo(T0.plusSeconds(160));
    }

    @Test
    void renewalNeverShortensWhenTheClockSteppedBack() {
        Instant stored = T0.plusSeconds(200);
        assertThat(LeaseMath.renewedExpiry(stored, T0, LEASE)).isEqualTo(stored);
    }

    @Test
    void renewalWithoutStoredExpiryUsesNowPlusLease() {
        assertThat(LeaseMath.renewedExpiry(null, T0, LEASE)).isEqualTo(T0.plus(LEASE));
    }

    @Test
    void renewalIntervalIsAThirdOfTheLease() {
        assertThat(LeaseMath.renewalInterval(LEASE)).isEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void aLeaseIsExpiredAtItsExpiryInstant() {
        assertThat(LeaseMath.isExpired(T0, T0)).isTrue();
        assertThat(LeaseMath.isExpired(T0.plusMillis(1), T0)).isFalse();
        assertThat(LeaseMath.isExpired(null, T0)).isTrue();
    }

    @Test
    void aPartIsWhatDurationDividedByGivesTruncatedToTheNanosecond() {
        for (Duration duration : new Duration[] {Duration.ofSeconds(120), Duration.ofMillis(1), Duration.ofNanos(7),
                Duration.ofMillis(15_001), Duration.ofDays(365), Duration.ZERO, Duration.ofSeconds(-10, 1)}) {
            for (long parts : new long[] {1, 2, 3, 4, 6, 7}) {
                assertThat(LeaseMath.part(duration, parts)).as("%s / %s", duration, parts)
                        .isEqualTo(duration.dividedBy(parts));
            }
        }
        assertThat(LeaseMath.renewalInterval(Duration.ofSeconds(10))).isEqualTo(Duration.ofNanos(3_333_333_333L));
    }
}
