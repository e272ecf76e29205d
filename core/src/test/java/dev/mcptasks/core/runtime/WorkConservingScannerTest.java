package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.SubmitClaims;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.testkit.faults.Gate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Work-conserving scans: a scan that filled every slot it reserved runs again as slots free up, so a backlog larger
 * than the slots drains without the tick; a scan that found fewer rows than it reserved, or failed, ends the chain
 * (a failure backs off to the tick). The clock is never advanced unless a test fires the tick on purpose.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkConservingScannerTest {
    private static final int SLOTS = 8;

    private final LoopFixture f = new LoopFixture(SLOTS);

    @AfterEach
    void close() throws Exception {
        f.close();
    }

    @Test
    void aBacklogLargerThanTheSlotsDrainsWithoutTheTick() throws Exception {
        List<TaskId> tasks = f.submit(40);

        f.worker.start();
        f.awaitQuiet();

        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(40);
        assertThat(f.worker.metrics().claims()).isEqualTo(40);
        assertThat(f.driver.submits()).isEqualTo(40);
        assertThat(f.clock.nanoTime()).as("the tick timer never fired").isZero();
        // each rescan waits for half the slots: about 40 / 4 scans, never one per row or a spin
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).isBetween(40 / SLOTS, 2 * 40 / (SLOTS / 2) + 2);
    }

    @Test
    void admittedSubmitsHoldNoExecutorThreadWhileTheirAttemptRecordsWaitForTheirCommit() throws Exception {
        List<TaskId> tasks = f.submit(SLOTS);
        // every attempt record is gated, and the first to reach the store is held: which one that is depends on the
        // order the operations are admitted in. (Gating one task's record only, as this test did, let the others
        // commit first on a loaded machine: their creates were sent and their last writes waited for the held
        // commit on executor threads, as a last write does, so the executor never went quiet.)
        List<Gate> gates = tasks.stream().map(task -> f.faults.block(FencedWrite.RECORD_SUBMIT_ATTEMPT, task))
                .toList();

        // the held write holds the in-memory store's transaction lock, so the start pass's later scans wait for the
        // gate: the worker starts on a thread of its own
        CompletableFuture<Void> started = CompletableFuture.runAsync(f.worker::start);

        assertThat(firstArrival(gates)).as("an attempt record reached the store").isTrue();
        // the other attempts queue behind the held commit; a thread that waited for each would keep this busy
        f.executor.awaitQuiet(LoopFixture.WAIT);
        assertThat(f.driver.submits()).as("no create is sent before its attempt record committed").isZero();

        gates.forEach(Gate::release);
        started.get(LoopFixture.WAIT.toSeconds(), TimeUnit.SECONDS);
        f.awaitQuiet();

        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(SLOTS);
        assertThat(f.driver.submits()).isEqualTo(SLOTS);
    }

    @Test
    void aFullNotifyBatchIsFollowedByTheNextWithoutTheTick() throws Exception {
        List<TaskId> tasks = f.submit(20);
        tasks.forEach(f.service::requestCancel); // never sent: cancelled at once, each with an attention event

        f.worker.start();
        f.awaitQuiet();

        assertThat(f.sink.count()).isEqualTo(20);
        assertThat(f.worker.metrics().deliveries()).isEqualTo(20);
        assertThat(f.clock.nanoTime()).isZero();
        assertThat(f.repository.notifyScans()).isBetween(20 / SLOTS, 2 * 20 / (SLOTS / 2) + 2);
    }

    @Test
    void aResultThatTookItsDeliverySendsItWithoutANotifyScan() throws Exception {
        List<TaskId> tasks = f.submit(3);

        f.worker.start();
        f.awaitQuiet();

        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(3);
        assertThat(f.sink.count()).as("each result's event, sent by the worker that wrote it").isEqualTo(3);
        assertThat(f.repository.notifyScans()).as("the start-up pass alone, before any result").isEqualTo(1);
        assertThat(f.clock.nanoTime()).as("no tick").isZero();
        for (TaskId id : tasks) {
            assertThat(f.store.find(id).orElseThrow().outbox().status()).isEqualTo(NotificationStatus.DELIVERED);
        }
    }

    @Test
    void aScanThatFoundFewerRowsThanItReservedDoesNotScanAgainByItself() throws Exception {
        List<TaskId> tasks = f.submit(3);

        f.worker.start();
        f.awaitQuiet();

        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(3);
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).as("the start-up pass alone").isEqualTo(1);
        assertThat(f.repository.scans(ClaimPhase.CANCEL)).isEqualTo(1);
        assertThat(f.repository.scans(ClaimPhase.POLL)).isEqualTo(1);
    }

    @Test
    void aScanThatFoundEverySlotReservedRunsAgainAsSoonAsAReservationComesBackUnused() throws Exception {
        f.worker.start();
        f.awaitQuiet();
        // creates of this process hold every slot while their claimed inserts commit
        List<SubmitClaims.Reservation> held = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) {
            held.add(f.worker.submitClaims().reserve(null).orElseThrow());
        }
        List<TaskId> pending = f.submit(1); // created pending: its scan finds no free slot
        f.awaitQuiet();
        int scans = f.repository.scans(ClaimPhase.SUBMIT);

        held.get(0).abandoned(); // one create failed: its slot comes back unused, far from half the pool
        f.awaitQuiet();

        assertThat(f.withStatus(pending, TaskStatus.COMPLETED)).as("claimed without the tick").isEqualTo(1);
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).isEqualTo(scans + 1);
        assertThat(f.clock.nanoTime()).as("no tick").isZero();
        held.subList(1, SLOTS).forEach(SubmitClaims.Reservation::abandoned);
    }

    @Test
    void aFailedScanEndsTheChainAndTheTickResumesIt() throws Exception {
        List<TaskId> tasks = f.submit(20);
        f.repository.failScan(ClaimPhase.SUBMIT, 2);

        f.worker.start();
        f.awaitQuiet();

        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).as("the full first scan, then the failed rescan")
                .isEqualTo(2);
        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(SLOTS);

        f.clock.advance(f.settings.tickInterval());
        f.awaitQuiet();

        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(20);
    }

    @Test
    void aWorkerThatWasNotStartedRunsOnlyThePassesItIsTold() throws Exception {
        List<TaskId> tasks = f.submit(20);

        f.worker.tick();
        f.awaitQuiet();

        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).isEqualTo(1);
        assertThat(f.withStatus(tasks, TaskStatus.COMPLETED)).isEqualTo(SLOTS);
    }

    /** Waits (bounded) until any of {@code gates} holds a write. */
    private static boolean firstArrival(List<Gate> gates) throws InterruptedException {
        long deadline = System.nanoTime() + LoopFixture.WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (Gate gate : gates) {
                if (gate.awaitArrivals(1, java.time.Duration.ofMillis(5))) {
                    return true;
                }
            }
        }
        return false;
    }
}
