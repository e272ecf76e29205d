package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.core.system.SystemClock;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import java.util.concurrent.ThreadLocalRandom;

/** Binds the real time and randomness: {@link SystemClock}, {@link RandomIdGenerator} and a jitter source. */
public final class SystemModule extends AbstractModule {
    @Provides
    @Singleton
    SystemClock systemClock() {
        return new SystemClock();
    }

    @Provides
    @Singleton
    Clock clock(SystemClock clock) {
        return clock;
    }

    @Provides
    @Singleton
    IdGenerator ids(Clock clock) {
        return new RandomIdGenerator(clock);
    }

    @Provides
    @Singleton
    RandomSource random() {
        // Only poll jitter uses it: it needs spread, not unpredictability.
        return () -> ThreadLocalRandom.current().nextDouble();
    }
}
