package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** At most one progress write per second, the latest message wins, nothing after close. Manual clock and executor. */
class ProgressThrottleTest {
    private final ManualClock clock = new ManualClock();
    private final List<Runnable> queued = new ArrayList<>();
    private final Executor executor = queued::add;
    private final List<String> written = new ArrayList<>();
    private final ProgressThrottle throttle = new ProgressThrottle(clock, executor, message -> written.add(message));

    @Test
    void theFirstMessageIsWrittenAtOnceOnTheExecutorNotTheCallersThread() {
        throttle.offer("step 1");
        assertThat(written).isEmpty();
        runQueued();
        assertThat(written).containsExactly("step 1");
    }

    @Test
    void messagesWithinASecondCollapseIntoTheLatestWrittenOneSecondAfterThePreviousWrite() {
        throttle.offer("step 1");
        runQueued();
        clock.advance(Duration.ofMillis(200));
        throttle.offer("step 2");
        throttle.offer("step 3");
        runQueued();
        assertThat(written).containsExactly("step 1");

        clock.advance(Duration.ofMillis(799));
        runQueued();
        assertThat(written).as("not before a second has passed").containsExactly("step 1");
        clock.advance(Duration.ofMillis(1));
        runQueued();
        assertThat(written).containsExactly("step 1", "step 3");

        clock.advance(Duration.ofSeconds(5));
        runQueued();
        assertThat(written).as("nothing new, nothing written").hasSize(2);
        throttle.offer("step 4");
        runQueued();
        assertThat(written).as("a quiet second: written at once").containsExactly("step 1", "step 3", "step 4");
    }

    @Test
    void aMessageArrivingDuringAWriteWaitsForTheNextSlot() {
        List<ProgressThrottle> self = new ArrayList<>();
        ProgressThrottle throttle = new ProgressThrottle(clock, executor, message -> {
            written.add(message);
            if (written.size() == 1) {
                self.get(0).offer("step 2"); // arrives while the first write runs
                assertThat(queued).as("writes never overlap").isEmpty();
            }
            return true;
        });
        self.add(throttle);
        throttle.offer("step 1");
        runQueued();
        assertThat(written).containsExactly("step 1");
        clock.advance(Duration.ofSeconds(1));
        runQueued();
        assertThat(written).containsExactly("step 1", "step 2");
    }

    @Test
    void theLatestMessageBeforeAWriteStartsIsTheOneWritten() {
        throttle.offer("step 1");
        throttle.offer("step 2");
        runQueued();
        assertThat(written).containsExactly("step 2");
    }

    @Test
    void nothingIsWrittenAfterClose() {
        throttle.offer("step 1");
        runQueued();
        throttle.offer("step 2");
        throttle.close();
        clock.advance(Duration.ofSeconds(2));
        throttle.offer("step 3");
        runQueued();
        assertThat(written).containsExactly("step 1");

        ProgressThrottle queuedThenClosed = new ProgressThrottle(clock, executor, message -> written.add(message));
        queuedThenClosed.offer("late");
        queuedThenClosed.close();
        runQueued();
        assertThat(written).as("a write not started when closed never starts").containsExactly("step 1");
    }

    @Test
    void aFailingWriteIsNotRetriedAndLaterProgressIsStillWritten() {
        List<String> attempts = new ArrayList<>();
        ProgressThrottle failing = new ProgressThrottle(clock, executor, message -> {
            attempts.add(message);
            if (attempts.size() == 1) {
                throw new IllegalStateException("store blip");
            }
            return true;
        });
        failing.offer("step 1");
        runQueued();
        clock.advance(Duration.ofSeconds(1));
        runQueued();
        failing.offer("step 2");
        runQueued();
        assertThat(attempts).containsExactly("step 1", "step 2");
    }

    private void runQueued() {
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }
    }
}
