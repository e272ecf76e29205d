package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PollPolicyTest {
    private static final Instant DONE = Instant.parse("2026-01-01T00:00:00Z");
    private static final RandomSource MIDDLE = () -> 0.5;
    private final PollPolicy policy = new PollPolicy(Duration.ofSeconds(5), Duration.ofSeconds(1),
            Duration.ofSeconds(60), Duration.ofSeconds(30), 0.1);

    @Test
    void withoutAHintUsesTheDefaultIntervalFromTheCompletionTime() {
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, null, MIDDLE)).isEqualTo(DONE.plusSeconds(5));
    }

    @Test
    void honoursTheServerHintWithinFloorAndCeiling() {
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, Duration.ofSeconds(2), MIDDLE))
                .isEqualTo(DONE.plusSeconds(2));
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, Duration.ofMillis(10), MIDDLE))
                .isEqualTo(DONE.plusSeconds(1));
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, Duration.ofHours(2), MIDDLE))
                .isEqualTo(DONE.plusSeconds(60));
    }

    @Test
    void inputRequiredWaitsAtLeastItsMinimum() {
        assertThat(policy.nextPollAt(DONE, TaskStatus.INPUT_REQUIRED, Duration.ofSeconds(1), MIDDLE))
                .isEqualTo(DONE.plusSeconds(30));
    }

    @Test
    void jitterSpreadsWithinTheFractionAndNeverBelowTheFloor() {
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, Duration.ofSeconds(10), () -> 0.0))
                .isEqualTo(DONE.plusSeconds(9));
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, Duration.ofSeconds(10), () -> 0.999_999))
                .isBetween(DONE.plusMillis(10_999), DONE.plusSeconds(11));
        assertThat(policy.nextPollAt(DONE, TaskStatus.WORKING, Duration.ofSeconds(1), () -> 0.0))
                .isEqualTo(DONE.plusSeconds(1));
    }

    @Test
    void neverSchedulesMoreThanADayAhead() {
        PollPolicy slow = new PollPolicy(Duration.ofHours(30), Duration.ofSeconds(1), Duration.ofHours(48),
                Duration.ofHours(40), 0);
        assertThat(slow.nextPollAt(DONE, TaskStatus.INPUT_REQUIRED, null, MIDDLE)).isEqualTo(DONE.plus(Duration.ofHours(24)));
    }

    @Test
    void defaultsKeepAPollIntervalOutsideTheStandardBounds() {
        PollPolicy fast = PollPolicy.defaults(Duration.ofMillis(200), Duration.ofSeconds(60));
        assertThat(fast.floor()).isEqualTo(Duration.ofMillis(200));
        PollPolicy slow = PollPolicy.defaults(Duration.ofMinutes(20), Duration.ofSeconds(60));
        assertThat(slow.ceiling()).isEqualTo(Duration.ofMinutes(20));
    }

    @Test
    void rejectsInconsistentSettings() {
        assertThatThrownBy(() -> new PollPolicy(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(1),
                Duration.ofSeconds(1), 0)).isInstanceOf(DomainException.class).hasMessageContaining("floor");
        assertThatThrownBy(() -> new PollPolicy(Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(10),
                Duration.ofSeconds(1), 1.0)).isInstanceOf(DomainException.class).hasMessageContaining("jitter");
    }
}
