package dev.mcptasks.core.system;

import dev.mcptasks.domain.Base32;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Random;

/**
 * Production ids. A task id is {@code t}, 12 base32 characters of the creation millisecond, 8 random base32
 * characters (40 bits) and 16 more (80 bits), so ids sort by creation time across workers; within one generator, ids
 * in the same millisecond (or after a backward clock step) increment the first random part, so they stay strictly
 * increasing. The last 16 characters are fresh for every id: the gateway hands task ids to agents, and one id must
 * not reveal its neighbours (120 random bits in all).
 * Claim tokens are 128 bits from a {@link SecureRandom}.
 */
public final class RandomIdGenerator implements IdGenerator {
    private static final int TIME_CHARS = 12;
    private static final int RANDOM_CHARS = 8;
    private static final int SECRET_CHARS = 16;
    private static final long RANDOM_LIMIT = 1L << (5 * RANDOM_CHARS);

    private final Clock clock;
    private final Random random;
    private long lastMillis = -1;
    private long lastRandom;

    public RandomIdGenerator(Clock clock) {
        this(clock, new SecureRandom());
    }

    RandomIdGenerator(Clock clock, Random random) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public TaskId newTaskId() {
        long millis;
        long suffix;
        synchronized (this) {
            millis = clock.now().toEpochMilli();
            if (millis <= lastMillis) {
                // Same millisecond or a backward wall-clock step: stay on the last time and count up, so ids made
                // here never sort before an earlier one. An exhausted random part moves on to the next millisecond.
                millis = lastMillis;
                suffix = lastRandom + 1;
                if (suffix >= RANDOM_LIMIT) {
                    millis++;
                    suffix = nextRandom();
                }
            } else {
                suffix = nextRandom();
            }
            lastMillis = millis;
            lastRandom = suffix;
        }
        long secretHigh;
        long secretLow;
        synchronized (this) {
            secretHigh = random.nextLong();
            secretLow = random.nextLong();
        }
        StringBuilder id = new StringBuilder(1 + TIME_CHARS + RANDOM_CHARS + SECRET_CHARS).append('t');
        Base32.appendFixed(id, millis, TIME_CHARS);
        Base32.appendFixed(id, suffix, RANDOM_CHARS);
        Base32.appendFixed(id, secretHigh, SECRET_CHARS / 2);
        Base32.appendFixed(id, secretLow, SECRET_CHARS / 2);
        return TaskId.of(id.toString());
    }

    @Override
    public ClaimToken newClaimToken() {
        byte[] bytes = new byte[16];
        synchronized (this) {
            random.nextBytes(bytes);
        }
        return ClaimToken.of(Base32.encode(bytes));
    }

    /** A random start that leaves room to count up within one millisecond. */
    private long nextRandom() {
        return (random.nextLong() >>> 1) % (RANDOM_LIMIT / 2);
    }
}
