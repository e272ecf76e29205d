package dev.mcptasks.core.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SystemClockTest {
    @Test
    void wallTimeIsAtMillisecondPrecisionAndNanoTimeIsMonotonic() {
        try (SystemClock clock = new SystemClock()) {
            Instant now = clock.now();
            assertThat(now.getNano() % 1_000_000).isZero();
            long first = clock.nanoTime();
            assertThat(clock.nanoTime()).isGreaterThanOrEqualTo(first);
        }
    }

    @Test
    void timersFireAndCanBeCancelledOnlyBeforeTheyRun() throws InterruptedException {
        try (SystemClock clock = new SystemClock()) {
            CountDownLatch fired = new CountDownLatch(1);
            Clock.Timer timer = clock.schedule(Duration.ZERO, fired::countDown);
            assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(timer.cancel()).isFalse();

            CountDownLatch never = new CountDownLatch(1);
            Clock.Timer later = clock.schedule(Duration.ofHours(1), never::countDown);
            assertThat(later.cancel()).isTrue();
            assertThat(later.cancel()).isFalse();
        }
    }

    @Test
    void aFailingTimerDoesNotStopLaterOnes() throws InterruptedException {
        try (SystemClock clock = new SystemClock()) {
            clock.schedule(Duration.ZERO, () -> {
                throw new IllegalStateException("expected in this test");
            });
            CountDownLatch fired = new CountDownLatch(1);
            clock.schedule(Duration.ofMillis(1), fired::countDown);
            assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void anErrorInATimerReachesTheUncaughtExceptionPolicy() throws InterruptedException {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        AtomicReference<Throwable> heard = new AtomicReference<>();
        CountDownLatch told = new CountDownLatch(1);
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            heard.set(error);
            told.countDown();
        });
        try (SystemClock clock = new SystemClock()) {
            StackOverflowError error = new StackOverflowError("expected in this test");
            clock.schedule(Duration.ZERO, () -> {
                throw error;
            });
            assertThat(told.await(10, TimeUnit.SECONDS)).as("the policy heard of the error").isTrue();
            assertThat(heard.get()).isSameAs(error);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }
}
