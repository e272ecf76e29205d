package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final Duration BASE = Duration.ofSeconds(5);
    private static final Duration CAP = Duration.ofSeconds(300);

    @Test
    void doublesPerConsecutiveFailure() {
        assertThat(Backoff.delay(BASE, 0, CAP)).isEqualTo(Duration.ofSeconds(5));
        assertThat(Backoff.delay(BASE, 1, CAP)).isEqualTo(Duration.ofSeconds(10));
        assertThat(Backoff.delay(BASE, 3, CAP)).isEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void isCappedByTheMaximum() {
        assertThat(Backoff.delay(BASE, 7, CAP)).isEqualTo(CAP);
    }

    @Test
    void exponentStopsAtSixteenSoHugeCountsDoNotOverflow() {
        Duration uncapped = Duration.ofDays(365_000);
        assertThat(Backoff.delay(Duration.ofMillis(1), 16, uncapped)).isEqualTo(Duration.ofMillis(65_536));
        assertThat(Backoff.delay(Duration.ofMillis(1), Integer.MAX_VALUE, uncapped))
                .isEqualTo(Duration.ofMillis(65_536));
    }

    @Test
    void negativeCountsAreTreatedAsTheFirstFailure() {
        assertThat(Backoff.delay(BASE, -3, CAP)).isEqualTo(BASE);
    }

    @Test
    void rejectsNegativeDurations() {
        assertThatThrownBy(() -> Backoff.delay(BASE.negated(), 1, CAP)).isInstanceOf(DomainException.class);
    }
}
