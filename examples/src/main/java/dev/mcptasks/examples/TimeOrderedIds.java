package dev.mcptasks.examples;

import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ids for the example: a task id is {@code x}, a 16-digit hex stamp, then 120 random bits (30 hex digits), so ids sort
 * by creation time and none reveals another. The stamp counts thousandths of a millisecond and never repeats or goes
 * back within this generator (same millisecond, or the wall clock stepped back): it takes the last stamp plus one
 * whenever the clock offers no later one. Claim tokens are 128 random bits.
 */
final class TimeOrderedIds implements IdGenerator {
    private static final HexFormat HEX = HexFormat.of();

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final AtomicLong lastStamp = new AtomicLong();

    TimeOrderedIds(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public TaskId newTaskId() {
        long stamp = lastStamp.updateAndGet(last -> Math.max(last + 1, clock.now().toEpochMilli() * 1000));
        return TaskId.of("x" + HEX.toHexDigits(stamp) + randomHex(15));
    }

    @Override
    public ClaimToken newClaimToken() {
        return ClaimToken.of(randomHex(16));
    }

    private String randomHex(int bytes) {
        byte[] drawn = new byte[bytes];
        random.nextBytes(drawn);
        return HEX.formatHex(drawn);
    }
}
