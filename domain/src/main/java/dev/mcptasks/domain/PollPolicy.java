package dev.mcptasks.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * When to poll a nonterminal task next. The delay counts from the moment the status call completed, so a slow
 * server is not polled back-to-back. The server's {@code pollInterval} hint is honoured within [floor, ceiling];
 * {@code input_required} waits at least {@code inputRequiredMinimum}; jitter spreads many tasks apart; nothing is
 * ever scheduled more than 24 hours out.
 */
public record PollPolicy(
        Duration defaultInterval,
        Duration floor,
        Duration ceiling,
        Duration inputRequiredMinimum,
        double jitterFraction) {

    public static final Duration ABSOLUTE_CEILING = Duration.ofHours(24);

    public PollPolicy {
        requirePositive("defaultInterval", defaultInterval);
        requirePositive("floor", floor);
        requirePositive("ceiling", ceiling);
        requirePositive("inputRequiredMinimum", inputRequiredMinimum);
        if (floor.compareTo(ceiling) > 0) {
            throw new DomainException("poll floor " + floor + " is above the ceiling " + ceiling);
        }
        if (!(jitterFraction >= 0 && jitterFraction < 1)) {
            throw new DomainException("jitterFraction must be in [0, 1), was " + jitterFraction);
        }
    }

    /** The defaults of {@code runtime-behaviour.md} section 10 with a 500 ms floor, 10 min ceiling and 10% jitter. */
    public static PollPolicy defaults(Duration pollInterval, Duration inputRequiredPoll) {
        Duration floor = Duration.ofMillis(500);
        Duration ceiling = Duration.ofMinutes(10);
        return new PollPolicy(pollInterval, floor.compareTo(pollInterval) > 0 ? pollInterval : floor,
                ceiling.compareTo(pollInterval) < 0 ? pollInterval : ceiling, inputRequiredPoll, 0.1);
    }

    /**
     * @param completedAt when the status call completed
     * @param status the status just observed (nonterminal)
     * @param serverHint the server's suggested interval, or null
     * @param random the injected random source for jitter
     */
    public Instant nextPollAt(Instant completedAt, TaskStatus status, Duration serverHint, RandomSource random) {
        Duration base = serverHint == null || serverHint.isNegative() ? defaultInterval : serverHint;
        base = clamp(base, floor, ceiling);
        base = withJitter(base, random);
        if (base.compareTo(floor) < 0) {
            base = floor;
        }
        if (status == TaskStatus.INPUT_REQUIRED && base.compareTo(inputRequiredMinimum) < 0) {
            base = inputRequiredMinimum;
        }
        if (base.compareTo(ABSOLUTE_CEILING) > 0) {
            base = ABSOLUTE_CEILING;
        }
        return completedAt.plus(base);
    }

    private Duration withJitter(Duration base, RandomSource random) {
        if (jitterFraction == 0) {
            return base;
        }
        double factor = 1 + jitterFraction * (2 * random.nextDouble() - 1);
        return Duration.ofNanos(Math.round(base.toNanos() * factor));
    }

    private static Duration clamp(Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0) {
            return min;
        }
        return value.compareTo(max) > 0 ? max : value;
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new DomainException(name + " must be a positive duration, was " + value);
        }
    }
}
