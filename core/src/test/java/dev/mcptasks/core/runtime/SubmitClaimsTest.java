package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.core.service.SubmitClaims;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.ForwardingTaskRecords;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRecords;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task submitted through a service whose process runs a worker is created claimed by that worker and sent at once:
 * no claim scan finds it and no submit-attempt write precedes its create request (the insert recorded it). Without a
 * free slot, or before the worker runs, it is created pending as before. The clock never moves: no tick fires.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SubmitClaimsTest {
    private final LoopFixture f = new LoopFixture(2);

    @AfterEach
    void close() throws Exception {
        f.close();
    }

    @Test
    void aSubmittedTaskIsSentByThisProcesssWorkerWithoutAScanOrAnAttemptWrite() throws Exception {
        f.service.claimSubmitsWith(f.worker.submitClaims());
        f.worker.start();
        f.awaitQuiet();
        int scansAtStart = f.repository.scans(ClaimPhase.SUBMIT);

        TaskId id = f.submit(1).get(0);
        f.awaitQuiet();

        TaskRecord row = f.store.find(id).orElseThrow();
        // the fixture's server is atMostOnce: the attempt the create recorded is this claim's, not a lost one's
        assertThat(row.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(f.driver.submits()).isEqualTo(1);
        assertThat(row.control().submitAttemptCount()).isEqualTo(1);
        assertThat(f.repository.scans(ClaimPhase.SUBMIT)).as("no scan was needed").isEqualTo(scansAtStart);
        assertThat(f.faults.attempts(FencedWrite.RECORD_SUBMIT_ATTEMPT, id)).as("no attempt write").isZero();
        assertThat(f.faults.attempts(FencedWrite.APPLY_SUBMITTED, id)).isEqualTo(1);
        assertThat(f.worker.metrics().slotsInUse()).isZero();
        assertThat(f.clock.nanoTime()).isZero();
    }

    @Test
    void withEverySlotHeldTheTaskIsCreatedPendingAndAScanTakesItOnceASlotIsFree() throws Exception {
        f.service.claimSubmitsWith(f.worker.submitClaims());
        f.worker.start();
        f.awaitQuiet();
        SubmitClaims.Reservation first = f.worker.submitClaims().reserve(null).orElseThrow();
        SubmitClaims.Reservation second = f.worker.submitClaims().reserve(null).orElseThrow();
        assertThat(f.worker.submitClaims().reserve(null)).as("both slots are held").isEmpty();

        TaskId id = f.submit(1).get(0);
        assertThat(f.store.find(id).orElseThrow().lease().isHeld()).as("created pending, unclaimed").isFalse();
        first.abandoned();
        second.abandoned();
        f.worker.tick();
        f.awaitQuiet();

        assertThat(f.store.find(id).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(f.faults.attempts(FencedWrite.RECORD_SUBMIT_ATTEMPT, id)).as("a scanned claim records it")
                .isEqualTo(1);
        assertThat(f.worker.metrics().slotsInUse()).isZero();
    }

    @Test
    void aCreateThatFailsGivesItsSlotBack() throws Exception {
        TaskService failing = new TaskService(ComposedTaskRepository.of(f.store).withTasks(
                tasks -> new ForwardingTaskRecords() {
                    @Override
                    public TaskRecords delegate() {
                        return tasks;
                    }

                    @Override
                    public TaskRecord create(NewTask task) {
                        assertThat(task.claim()).as("the create was to take a claim").isNotNull();
                        throw new RepositoryUnavailableException("database unreachable", null);
                    }
                }), f.servers, f.ids);
        failing.claimSubmitsWith(f.worker.submitClaims());
        f.worker.start();
        f.awaitQuiet();

        assertThatThrownBy(() -> failing.submit(LoopFixture.SERVER, "job", "{}"))
                .isInstanceOf(RepositoryUnavailableException.class);

        assertThat(f.worker.metrics().slotsInUse()).isZero();
        assertThat(f.worker.submitClaims().reserve(null)).isPresent();
    }

    @Test
    void theClaimedCreateCommitsInTheWorkersGroupCommit() throws Exception {
        AtomicReference<String> createdOn = new AtomicReference<>();
        TaskService recording = new TaskService(ComposedTaskRepository.of(f.store).withTasks(
                tasks -> new ForwardingTaskRecords() {
                    @Override
                    public TaskRecords delegate() {
                        return tasks;
                    }

                    @Override
                    public TaskRecord create(NewTask task) {
                        createdOn.set(Thread.currentThread().getName());
                        return ForwardingTaskRecords.super.create(task);
                    }
                }), f.servers, f.ids);
        recording.claimSubmitsWith(f.worker.submitClaims());
        f.worker.start();
        f.awaitQuiet();

        TaskId id = recording.submit(LoopFixture.SERVER, "job", "{}").id();
        f.awaitQuiet();

        assertThat(createdOn.get()).as("a committer thread of the worker, beside its other writes")
                .startsWith("worker-w-commit-");
        assertThat(f.store.find(id).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void aWorkerThatIsNotRunningReservesNothing() throws Exception {
        assertThat(f.worker.submitClaims().reserve(null)).isEqualTo(Optional.empty());
        f.worker.start();
        f.worker.stop().get(20, TimeUnit.SECONDS);
        assertThat(f.worker.submitClaims().reserve(null)).isEqualTo(Optional.empty());
    }

    @Test
    void aReservationIsUsedOnce() throws Exception {
        f.worker.start();
        f.awaitQuiet();
        SubmitClaims.Reservation reservation = f.worker.submitClaims().reserve(null).orElseThrow();

        reservation.abandoned();
        reservation.abandoned();

        assertThat(f.worker.metrics().slotsInUse()).isZero();
    }
}
