package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.trace.Tracing;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A fresh claim needs no verification renewal before its driver call; an older one does. */
class ControlOperationAdmissionTest {
    private static final long WAIT_SECONDS = 20;
    private static final RuntimeSettings SETTINGS = LifecycleHarness.settings(4);
    private static final Duration STEP = SETTINGS.lease().dividedBy(3);

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final CountingRenewals renewals = new CountingRenewals(new InMemoryTaskRepository(clock, ids));
    private final TaskRepository repository = ComposedTaskRepository.of(renewals.store).withClaims(claims -> renewals);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final RecordingListener events = new RecordingListener();
    private final RuntimeCounters counters = new RuntimeCounters();

    @AfterEach
    void shutdown() {
        executor.shutdownNow();
    }

    @Test
    void aClaimAdmittedWithinTheFirstRenewalIntervalIsCalledWithoutARenewalAndRenewedAThirdOfTheLeaseAfterItsClaim()
            throws Exception {
        ClaimedTask claimed = claim();
        long claimedAt = clock.nanoTime();
        clock.advance(STEP.minusMillis(1));
        Handler handler = new Handler();

        operation(claimed, claimedAt, handler).start();

        ClaimContext context = handler.ran.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(handler.renewalsBeforeRun).as("the claim statement confirmed it").hasValue(0);
        assertThat(counters.renewals.get()).isZero();
        clock.advance(Duration.ofMillis(1));
        events.await(RecordingListener.Type.RENEWED, claimed.claim().taskId(), 1);
        assertThat(renewals.renewals.get()).as("periodic renewal at claim + lease/3").isEqualTo(1);
        Claim claim = claimed.claim();
        context.finish(FencedWrite.RELEASE_CANCELLED, () -> repository.releaseCancelled(claim));
    }

    @Test
    void aClaimAdmittedALeaseThirdAfterItsClaimIsVerifiedBeforeItsCall() throws Exception {
        ClaimedTask claimed = claim();
        long claimedAt = clock.nanoTime();
        clock.advance(STEP);
        Handler handler = new Handler();

        operation(claimed, claimedAt, handler).start();

        ClaimContext context = handler.ran.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(handler.renewalsBeforeRun).as("verified and extended first").hasValue(1);
        assertThat(counters.renewals.get()).isEqualTo(1);
        Claim claim = claimed.claim();
        context.finish(FencedWrite.RELEASE_CANCELLED, () -> repository.releaseCancelled(claim));
    }

    /**
     * A cancel request takes a poll row from its claim (runtime-behaviour 4.3): only a renewal sees that, so a poll is
     * verified even when its claim is fresh, and a status call never overlaps the cancel phase's call.
     */
    @Test
    void aFreshPollClaimIsVerifiedAndACancelRequestedSinceItsClaimKeepsItsCallFromBeingMade() throws Exception {
        ClaimedTask claimed = pollClaim();
        long claimedAt = clock.nanoTime();
        repository.requestCancel(claimed.claim().taskId());
        Handler handler = new Handler(ClaimPhase.POLL);
        ControlOperation operation = operation(claimed, claimedAt, handler);

        operation.start();

        operation.finished().get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(handler.ran).as("the status call is never made").isNotDone();
        assertThat(renewals.renewals.get()).as("the verification renewal ran and was rejected").isEqualTo(1);
    }

    /**
     * The driver asks the permit to confirm before each request. Right after the verification it answers at once; a
     * request that comes later (a session had to be opened first) is confirmed with the store, which sees the user's
     * cancel request that took the row meanwhile: nothing is sent and the claim is lost.
     */
    @Test
    void aPollPermitConfirmsWithTheStoreARequestThatComesLateAndRefusesItOnceACancelTookTheRow() throws Exception {
        ClaimedTask claimed = pollClaim();
        Handler handler = new Handler(ClaimPhase.POLL);
        ControlOperation operation = operation(claimed, clock.nanoTime(), handler);
        operation.start();
        CompletableFuture<SendPermit> granted = new CompletableFuture<>();
        CompletableFuture<Void> call = new CompletableFuture<>(); // stays in flight
        handler.ran.get(WAIT_SECONDS, TimeUnit.SECONDS).call(permit -> {
            granted.complete(permit);
            return call;
        }, (result, error) -> { });
        SendPermit permit = granted.get(WAIT_SECONDS, TimeUnit.SECONDS);
        int verified = renewals.renewals.get();

        assertThat(permit.confirm().get(WAIT_SECONDS, TimeUnit.SECONDS)).as("just verified").isTrue();
        assertThat(renewals.renewals.get()).as("no store call for a recent confirmation").isEqualTo(verified);

        clock.advance(ControlOperation.RECONFIRM_AFTER);
        assertThat(permit.confirm().get(WAIT_SECONDS, TimeUnit.SECONDS)).as("still this worker's").isTrue();
        assertThat(renewals.renewals.get()).as("confirmed by the store").isEqualTo(verified + 1);

        repository.requestCancel(claimed.claim().taskId());
        clock.advance(ControlOperation.RECONFIRM_AFTER);
        assertThat(permit.confirm().get(WAIT_SECONDS, TimeUnit.SECONDS)).as("the cancel request took the row")
                .isFalse();
        operation.finished().get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(operation.lossCause()).as("the claim was lost").isPresent();
        assertThat(permit.maySend()).isFalse();
        call.complete(null);
        operation.settled().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aFreshCancelClaimIsCalledWithoutARenewal() throws Exception {
        ClaimedTask polled = pollClaim();
        repository.releaseCancelled(polled.claim());
        repository.requestCancel(polled.claim().taskId());
        ClaimedTask claimed = repository.claimControl(new ControlClaimRequest(ClaimPhase.CANCEL, WorkerId.of("w"), 1,
                SETTINGS.lease(), SETTINGS.workerStaleAfter(), Set.of())).get(0);
        Handler handler = new Handler(ClaimPhase.CANCEL);

        operation(claimed, clock.nanoTime(), handler).start();

        ClaimContext context = handler.ran.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(handler.renewalsBeforeRun).as("only expiry can take a cancel claim").hasValue(0);
        Claim claim = claimed.claim();
        context.finish(FencedWrite.RELEASE_CANCELLED, () -> repository.releaseCancelled(claim));
    }

    private ControlOperation operation(ClaimedTask claimed, long claimedAt, PhaseHandler handler) {
        return new ControlOperation(claimed, claimedAt, handler, repository, clock, executor, SETTINGS,
                new Transitions(WorkerId.of("w"), SETTINGS, () -> 0.5, new SequentialIdGenerator()), events, counters,
                Tracing.NONE);
    }

    private ClaimedTask claim() {
        TaskId id = ids.newTaskId();
        repository.create(new NewTask(id, "srv", "tool", "{}", "driver", null));
        return repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("w"), 1,
                SETTINGS.lease(), SETTINGS.workerStaleAfter(), Set.of())).get(0);
    }

    /** A working row (created remotely), claimed for its poll. */
    private ClaimedTask pollClaim() {
        Claim submit = claim().claim();
        assertThat(repository.recordSubmitAttempt(submit)).isTrue();
        assertThat(repository.applySubmitted(submit, new SubmitWrite("r-1", new StoredSnapshot(TaskStatus.WORKING,
                null, null, false, null, null, null), null, "2025-11-25", null, clock.now(), null))).isTrue();
        return repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL, WorkerId.of("w"), 1,
                SETTINGS.lease(), SETTINGS.workerStaleAfter(), Set.of())).get(0);
    }

    /** Records how many renewals reached the store before it ran, and hands its context to the test. */
    private final class Handler implements PhaseHandler {
        final AtomicInteger renewalsBeforeRun = new AtomicInteger(-1);
        final CompletableFuture<ClaimContext> ran = new CompletableFuture<>();
        private final ClaimPhase phase;

        Handler() {
            this(ClaimPhase.SUBMIT);
        }

        Handler(ClaimPhase phase) {
            this.phase = phase;
        }

        @Override
        public ClaimPhase phase() {
            return phase;
        }

        @Override
        public void run(ClaimContext context) {
            renewalsBeforeRun.set(renewals.renewals.get());
            ran.complete(context);
        }
    }

    private static final class CountingRenewals implements ForwardingTaskClaims {
        private final TaskClaims delegate;

        final AtomicInteger renewals = new AtomicInteger();
        final TaskRepository store;

        CountingRenewals(TaskRepository store) {
            this.delegate = store;
            this.store = store;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            renewals.incrementAndGet();
            return delegate().renew(claim, lease);
        }
    }
}
