package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.testkit.faults.Gate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Work arrival wakes a started worker: a task created after start is claimed without the tick timer, and wake-ups
 * during a pass coalesce into exactly one more pass. The clock is never advanced, so the tick never fires.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RuntimeWakeUpTest {
    private final LoopFixture f = new LoopFixture(8);

    @AfterEach
    void close() throws Exception {
        f.close();
    }

    @Test
    void aTaskCreatedAfterStartIsClaimedWithoutTheTickTimer() throws Exception {
        f.worker.start();
        f.awaitQuiet();
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).as("the first pass at start-up").isEqualTo(1);

        TaskId id = f.submit(1).get(0);
        f.awaitQuiet();

        assertThat(f.store.find(id).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(f.driver.submits()).isEqualTo(1);
        assertThat(f.clock.nanoTime()).as("the clock never moved: the tick timer did not fire").isZero();
        assertThat(f.clock.pendingDelays()).as("the tick is still waiting").contains(f.settings.tickInterval());
    }

    @Test
    void wakeUpsDuringAPassCoalesceIntoExactlyOneMorePass() throws Exception {
        f.worker.start();
        f.awaitQuiet();
        Gate cancelScans = f.faults.blockClaims(ClaimPhase.CANCEL);

        List<TaskId> first = f.submit(1);
        assertThat(cancelScans.awaitArrivals(1, LoopFixture.WAIT)).as("the wake-up started a pass").isTrue();
        List<TaskId> more = f.submit(3); // three wake-ups while that pass is held in its first scan
        cancelScans.release();
        f.awaitQuiet();

        assertThat(f.repository.scans(ClaimPhase.CANCEL)).as("start-up, the held pass, exactly one more")
                .isEqualTo(3);
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).isEqualTo(3);
        assertThat(f.withStatus(first, TaskStatus.COMPLETED) + f.withStatus(more, TaskStatus.COMPLETED))
                .isEqualTo(4);
        assertThat(f.clock.nanoTime()).isZero();
    }

    @Test
    void stopClosesTheWorkArrivalSubscription() throws Exception {
        f.worker.start();
        f.awaitQuiet();
        assertThat(f.repository.openSubscriptions()).isEqualTo(1);

        f.worker.stop().get(LoopFixture.WAIT.toSeconds(), TimeUnit.SECONDS);
        TaskId id = f.submit(1).get(0);
        f.awaitQuiet();

        assertThat(f.repository.openSubscriptions()).isZero();
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).as("no pass after stop").isEqualTo(1);
        assertThat(f.store.find(id).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
    }
}
