package dev.mcptasks.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.ForwardingTaskRepository;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskRepository;
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
    private final CountingRenewals repository = new CountingRenewals(new InMemoryTaskRepository(clock, ids));
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
        assertThat(repository.renewals.get()).as("periodic renewal at claim + lease/3").isEqualTo(1);
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

    private ControlOperation operation(ClaimedTask claimed, long claimedAt, Handler handler) {
        return new ControlOperation(claimed, claimedAt, handler, repository, clock, executor, SETTINGS,
                new Transitions(SETTINGS, () -> 0.5), events, counters);
    }

    private ClaimedTask claim() {
        TaskId id = ids.newTaskId();
        repository.create(new NewTask(id, "srv", "tool", "{}", "driver", null));
        return repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("w"), 1,
                SETTINGS.lease(), SETTINGS.workerStaleAfter(), Set.of())).get(0);
    }

    /** Records how many renewals reached the store before it ran, and hands its context to the test. */
    private final class Handler implements PhaseHandler {
        final AtomicInteger renewalsBeforeRun = new AtomicInteger(-1);
        final CompletableFuture<ClaimContext> ran = new CompletableFuture<>();

        @Override
        public ClaimPhase phase() {
            return ClaimPhase.SUBMIT;
        }

        @Override
        public void run(ClaimContext context) {
            renewalsBeforeRun.set(repository.renewals.get());
            ran.complete(context);
        }
    }

    private static final class CountingRenewals extends ForwardingTaskRepository {
        final AtomicInteger renewals = new AtomicInteger();
        private final TaskRepository delegate;

        CountingRenewals(TaskRepository delegate) {
            this.delegate = delegate;
        }

        @Override
        protected TaskRepository delegate() {
            return delegate;
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            renewals.incrementAndGet();
            return delegate.renew(claim, lease);
        }
    }
}
