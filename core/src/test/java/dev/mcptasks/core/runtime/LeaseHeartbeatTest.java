package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Renewals wait for their commit on the worker's group commit, never on a thread of their own. */
class LeaseHeartbeatTest {
    private static final long WAIT_SECONDS = 20;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final int HEARTBEATS = 1_000;

    private final ManualClock clock = new ManualClock();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final InMemoryTaskRepository memory = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final HungRenewals hung = new HungRenewals(memory, gate);
    private final TaskRepository store = ComposedTaskRepository.of(memory).withClaims(claims -> hung);
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final AtomicInteger executed = new AtomicInteger();
    private final Executor executor = task -> {
        executed.incrementAndGet();
        pool.execute(task);
    };
    private final RuntimeCounters counters = new RuntimeCounters();
    private final GroupCommit commits = new GroupCommit(store, 1, clock, executor, counters, "heartbeat-test");
    private final TaskRepository repository = new GroupCommittingRepository(store, commits);

    @AfterEach
    void shutdown() {
        gate.countDown();
        commits.stop();
        pool.shutdownNow();
    }

    @Test
    void aThousandRenewalsOnAHungStoreHoldNoThreadEachAndEachReportsItsStallOnce() throws Exception {
        List<RenewalOutcome> losses = new CopyOnWriteArrayList<>();
        List<LeaseHeartbeat> heartbeats = new ArrayList<>();
        List<CompletableFuture<RenewalOutcome>> attempts = new ArrayList<>();
        for (int i = 0; i < HEARTBEATS; i++) {
            Claim claim = new Claim(TaskId.of("task-" + i), ClaimPhase.POLL, WorkerId.of("w"), ClaimToken.of("t" + i),
                    clock.now().plus(LEASE));
            LeaseHeartbeat heartbeat = new LeaseHeartbeat(claim, clock.nanoTime(), LEASE, repository, clock, executor,
                    RuntimeListener.NONE, counters, losses::add);
            heartbeats.add(heartbeat);
            attempts.add(heartbeat.verifyAndExtend());
        }
        assertThat(hung.arrived.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

        clock.advance(LEASE.dividedBy(3));

        for (CompletableFuture<RenewalOutcome> attempt : attempts) {
            assertThat(attempt.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(RenewalOutcome.Stalled.class);
        }
        assertThat(losses).hasSize(HEARTBEATS).allMatch(loss -> loss instanceof RenewalOutcome.Stalled);
        assertThat(executed).as("no executor task per renewal").hasValue(0);
        assertThat(committerThreads()).as("committers stay bounded")
                .isBetween(1, 1 + GroupCommit.MAX_STALLED);
        CompletableFuture<Void> inFlight = heartbeats.get(0).stop();
        assertThat(inFlight).as("the hung store call is still owned").isNotDone();

        gate.countDown();

        for (LeaseHeartbeat heartbeat : heartbeats) {
            heartbeat.stop().get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(hung.renewals.get()).as("each renewal reached the store once").isGreaterThanOrEqualTo(HEARTBEATS);
        assertThat(losses).as("a late success changes nothing").hasSize(HEARTBEATS);
        assertThat(counters.renewals.get()).isZero();
    }

    private static int committerThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("heartbeat-test-commit-"))
                .count();
    }

    /** Every renewal blocks until the gate opens, then succeeds. */
    private static final class HungRenewals implements ForwardingTaskClaims {
        private final TaskClaims delegate;

        final CountDownLatch arrived = new CountDownLatch(1);
        final AtomicInteger renewals = new AtomicInteger();
        private final CountDownLatch gate;

        HungRenewals(TaskClaims delegate, CountDownLatch gate) {
            this.delegate = delegate;
            this.gate = gate;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            renewals.incrementAndGet();
            arrived.countDown();
            try {
                if (!gate.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return true;
        }
    }
}
