package dev.mcptasks.adapters.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A {@link java.time.Clock} that moves only when the test says so (the sink's timestamps, the breaker's wait). */
final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
        this.now = start;
    }

    void advance(Duration step) {
        now = now.plus(step);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a test clock stays in UTC");
    }
}
