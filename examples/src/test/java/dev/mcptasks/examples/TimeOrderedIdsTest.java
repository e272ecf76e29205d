package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ids sort by creation time, also within one millisecond and across a backward clock step, and are unguessable. */
class TimeOrderedIdsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-03T21:00:00Z"));
    private final TimeOrderedIds ids = new TimeOrderedIds(clock);

    @Test
    void idsIncreaseWithinOneMillisecondAndAfterTheClockStepsBack() {
        List<TaskId> made = new ArrayList<>();
        made.add(ids.newTaskId());
        made.add(ids.newTaskId());
        clock.stepWallClock(Duration.ofSeconds(-5));
        made.add(ids.newTaskId());
        clock.advance(Duration.ofMinutes(1));
        made.add(ids.newTaskId());

        assertThat(made).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aTaskIdIsTheStampAndOneHundredTwentyRandomBits() {
        TaskId first = ids.newTaskId();
        TaskId second = ids.newTaskId();

        assertThat(first.value()).matches("x[0-9a-f]{46}")
                .startsWith("x" + String.format("%016x", clock.now().toEpochMilli() * 1000));
        assertThat(second.value().substring(17)).isNotEqualTo(first.value().substring(17));
    }

    @Test
    void claimTokensAreFresh() {
        HashSet<String> tokens = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            tokens.add(ids.newClaimToken().value());
        }
        assertThat(tokens).hasSize(100).allSatisfy(token -> assertThat(token).matches("[0-9a-f]{32}"));
    }
}
