package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The example's clock keeps the {@link Clock.Timer} promise: a cancel answering true means the action never runs. */
class WallClockTest {
    private final WallClock clock = new WallClock();

    @AfterEach
    void close() {
        clock.close();
    }

    @Test
    void aDueTimerCancelledBeforeItsTurnNeverRuns() throws Exception {
        // the single timer thread is held, so the next timer is due but waits for its turn
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        clock.schedule(Duration.ZERO, () -> {
            holding.countDown();
            awaitQuietly(release);
        });
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger runs = new AtomicInteger();
        Clock.Timer due = clock.schedule(Duration.ZERO, runs::incrementAndGet);

        assertThat(due.cancel()).isTrue();
        assertThat(due.cancel()).as("only once").isFalse();
        release.countDown();
        // timers run in due order on one thread: once a later one ran, the cancelled one had its turn
        CountDownLatch later = new CountDownLatch(1);
        clock.schedule(Duration.ZERO, later::countDown);
        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runs).hasValue(0);
    }

    @Test
    void aTimerThatRanCannotBeCancelled() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Clock.Timer timer = clock.schedule(Duration.ZERO, ran::countDown);

        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(timer.cancel()).isFalse();
    }

    @Test
    void aTimerWhoseActionIsRunningCannotBeCancelled() throws Exception {
        // a bare ScheduledFuture would answer true here: its action runs on, though the caller was told it never will
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Clock.Timer timer = clock.schedule(Duration.ZERO, () -> {
            running.countDown();
            awaitQuietly(release);
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        try {
            assertThat(timer.cancel()).isFalse();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aFailingActionDoesNotStopLaterTimers() throws Exception {
        clock.schedule(Duration.ZERO, () -> {
            throw new IllegalStateException("boom");
        });
        CountDownLatch later = new CountDownLatch(1);
        clock.schedule(Duration.ZERO, later::countDown);

        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void nowIsAtMillisecondPrecision() {
        assertThat(clock.now().getNano() % 1_000_000).isZero();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
