package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {
    @Test
    void durationsReadAsPeopleWriteThem() {
        assertThat(DurationText.of(Duration.ZERO)).isEqualTo("0 ms");
        assertThat(DurationText.of(Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(DurationText.of(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(DurationText.of(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(DurationText.of(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(DurationText.of(Duration.ofSeconds(150))).isEqualTo("150 s");
        assertThat(DurationText.of(Duration.ofMinutes(5))).isEqualTo("5 min");
        assertThat(DurationText.of(Duration.ofMinutes(90))).isEqualTo("90 min");
        assertThat(DurationText.of(Duration.ofHours(2))).isEqualTo("2 h");
        assertThat(DurationText.of(Duration.ofMinutes(125))).isEqualTo("2 h 5 min");
        assertThat(DurationText.of(Duration.ofDays(7))).isEqualTo("168 h");
        assertThat(DurationText.of(Duration.ofSeconds(-30))).isEqualTo("-30 s");
    }
}
