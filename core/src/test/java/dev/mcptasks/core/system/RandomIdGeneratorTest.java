package dev.mcptasks.core.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Base32;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomIdGeneratorTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-02T12:00:00Z"));
    private final RandomIdGenerator ids = new RandomIdGenerator(clock, new Random(42));

    @Test
    void taskIdsCarryTheCreationTimeAndSortByIt() {
        TaskId first = ids.newTaskId();
        clock.advance(Duration.ofMillis(1));
        TaskId second = ids.newTaskId();
        clock.advance(Duration.ofDays(400));
        TaskId third = ids.newTaskId();

        assertThat(first.value()).matches("t[0-9a-hjkmnp-tv-z]{36}");
        assertThat(List.of(first, second, third)).isSorted();
        StringBuilder expectedTime = new StringBuilder("t");
        Base32.appendFixed(expectedTime, Instant.parse("2026-12-02T12:00:00Z").toEpochMilli(), 12);
        assertThat(first.value()).startsWith(expectedTime.toString());
    }

    @Test
    void idsMadeInTheSameMillisecondShareNoGuessableTail() {
        // the gateway hands task ids to agents, and a caller who knows one id must not derive its neighbours: the
        // 16 characters after the ordered part are 80 fresh random bits per id, not a counter
        TaskId first = ids.newTaskId();
        TaskId second = ids.newTaskId();

        assertThat(first.value().substring(0, 21)).isLessThan(second.value().substring(0, 21));
        String firstTail = first.value().substring(21);
        String secondTail = second.value().substring(21);
        assertThat(firstTail).hasSize(16).isNotEqualTo(secondTail);
        int samePositions = 0;
        for (int i = 0; i < 16; i++) {
            samePositions += firstTail.charAt(i) == secondTail.charAt(i) ? 1 : 0;
        }
        assertThat(samePositions).isLessThan(8);
    }

    @Test
    void idsInTheSameMillisecondOrAfterABackwardStepStillIncrease() {
        List<TaskId> made = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            made.add(ids.newTaskId());
        }
        clock.stepWallClock(Duration.ofSeconds(-5));
        made.add(ids.newTaskId());

        assertThat(made).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void idsFromTwoGeneratorsInOneMillisecondDiffer() {
        RandomIdGenerator other = new RandomIdGenerator(clock);
        RandomIdGenerator another = new RandomIdGenerator(clock);
        assertThat(other.newTaskId()).isNotEqualTo(another.newTaskId());
    }

    @Test
    void tokensAre128RandomBits() {
        RandomIdGenerator secure = new RandomIdGenerator(clock);
        Set<String> tokens = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            tokens.add(secure.newClaimToken().value());
        }
        assertThat(tokens).hasSize(1000).allSatisfy(token -> assertThat(token).matches("[0-9a-hjkmnp-tv-z]{26}"));
    }

    @Test
    void base32EncodesBitsInOrder() {
        assertThat(Base32.encode(new byte[] {0, 0, 0, 0, 0})).isEqualTo("00000000");
        assertThat(Base32.encode(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}))
                .isEqualTo("zzzzzzzz");
        assertThat(Base32.encode(new byte[] {(byte) 0x08})).isEqualTo("10");
    }
}
