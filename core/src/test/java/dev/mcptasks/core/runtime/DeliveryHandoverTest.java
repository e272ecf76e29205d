package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's result writes keep a delivery take only with a delivery slot reserved for it, hand the delivery over
 * once the write committed through the group commit, and give the slot back when the write took nothing.
 */
class DeliveryHandoverTest {
    private static final WorkerId W = WorkerId.of("w");
    private static final Duration LEASE = LifecycleHarness.settings(4).lease();

    private final ManualClock clock = new ManualClock();
    private final InMemoryTaskRepository memory = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final RecordingClaims recording = new RecordingClaims(memory);
    /** One write at a time: the recorded writes are the ones sent. */
    private final TaskRepository store = ComposedTaskRepository.of(memory)
            .withClaims(claims -> recording)
            .withStoreScope(scope -> new ForwardingStoreScope() {
                @Override
                public StoreScope delegate() {
                    return scope;
                }

                @Override
                public <T> T inOneTransaction(java.util.function.Supplier<T> work) {
                    throw new UnsupportedOperationException("one write at a time");
                }
            });
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final GroupCommit commits = new GroupCommit(store, 1, clock, pool, new RuntimeCounters(), "handover");
    private final RecordingHandover handover = new RecordingHandover();
    private final ResultWrites repository = new ResultWrites(new GroupCommittingRepository(store, commits), handover);
    private final Transitions transitions = new Transitions(W, LifecycleHarness.settings(4), () -> 0.5,
            new SequentialIdGenerator());

    @AfterEach
    void shutdown() {
        commits.stop();
        pool.shutdownNow();
    }

    @Test
    void aWriteWithASlotTakesItsDeliveryAndHandsItOverAfterTheCommit() {
        Claimed row = claimedPoll();
        OutcomeWrite done = transitions.terminal(row.record, StoredSnapshot.cancelled("stopped"));
        assertThat(done.take()).as("an idle outbox: the write offers a take").isNotNull();

        assertThat(repository.applyOutcome(row.claim, done)).isTrue();

        assertThat(recording.takes).containsExactly(done.take());
        assertThat(handover.handedOver).containsExactly(row.claim.taskId());
        assertThat(handover.reserved).hasValue(1);
        assertThat(handover.released).hasValue(0);
        assertThat(memory.find(row.claim.taskId()).orElseThrow().outbox().status())
                .isEqualTo(NotificationStatus.DISPATCHED);
    }

    @Test
    void withoutAFreeSlotTheWriteTakesNothingAndTheScanDeliversIt() {
        handover.slots = 0;
        Claimed row = claimedPoll();

        assertThat(repository.applyOutcome(row.claim,
                transitions.terminal(row.record, StoredSnapshot.cancelled("stopped")))).isTrue();

        assertThat(recording.takes).as("sent without its take").containsExactly((DeliveryTake) null);
        assertThat(handover.handedOver).isEmpty();
        assertThat(memory.find(row.claim.taskId()).orElseThrow().outbox().status())
                .isEqualTo(NotificationStatus.PENDING);
    }

    @Test
    void aRefusedOrFailedWriteGivesItsSlotBack() {
        Claimed row = claimedPoll();
        Claim stale = new Claim(row.claim.taskId(), ClaimPhase.POLL, W, ClaimToken.of("stale"), row.claim.expiresAt());
        OutcomeWrite done = transitions.terminal(row.record, StoredSnapshot.cancelled("stopped"));

        assertThat(repository.applyOutcome(stale, done)).isFalse();
        recording.failNext = true;
        assertThatThrownBy(() -> repository.applyOutcome(row.claim, done))
                .isInstanceOf(RepositoryUnavailableException.class);

        assertThat(handover.reserved).hasValue(2);
        assertThat(handover.released).hasValue(2);
        assertThat(handover.handedOver).isEmpty();
    }

    @Test
    void aSubmitResultTakesItsDeliveryToo() {
        TaskId id = memory.create(new NewTask(TaskId.of("t-submit"), "srv", "tool", "{}", "d", null)).id();
        var claimed = memory.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, W, 1, LEASE,
                Duration.ofSeconds(30), java.util.Set.of())).get(0);
        assertThat(memory.recordSubmitAttempt(claimed.claim())).isTrue();
        StoredSnapshot done = StoredSnapshot.cancelled("refused");
        AttentionEvent event = transitions.event(claimed.task(), done);
        SubmitWrite write = new SubmitWrite(null, done, null, "2025-11-25", null, null, event, null, null,
                transitions.take(claimed.task(), event));

        assertThat(repository.applySubmitted(claimed.claim(), write)).isTrue();

        assertThat(handover.handedOver).containsExactly(id);
    }

    private record Claimed(Claim claim, dev.mcptasks.ports.repository.TaskRecord record) {}

    /** A working row claimed for poll by W. */
    private Claimed claimedPoll() {
        TaskId id = memory.create(new NewTask(TaskId.of("t-poll"), "srv", "tool", "{}", "d", null))
                .id();
        var submit = memory.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, W, 1, LEASE,
                Duration.ofSeconds(30), java.util.Set.of())).get(0);
        assertThat(memory.recordSubmitAttempt(submit.claim())).isTrue();
        assertThat(memory.applySubmitted(submit.claim(), new SubmitWrite("r-" + id, new StoredSnapshot(
                dev.mcptasks.domain.TaskStatus.WORKING, null, null, false, null, null, null), null, "2025-11-25",
                null, clock.now(), null))).isTrue();
        var poll = memory.claimControl(new ControlClaimRequest(ClaimPhase.POLL, W, 1, LEASE, Duration.ofSeconds(30),
                java.util.Set.of())).get(0);
        return new Claimed(poll.claim(), poll.task());
    }

    /** Records the take each result write reached the store with, and can fail the next one. */
    private static final class RecordingClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;

        final List<DeliveryTake> takes = new CopyOnWriteArrayList<>();
        volatile boolean failNext;

        RecordingClaims(TaskClaims delegate) {
            this.delegate = delegate;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            takes.add(write.take());
            if (failNext) {
                failNext = false;
                throw new RepositoryUnavailableException("database unreachable", null);
            }
            return delegate().applyOutcome(claim, write);
        }
    }

    /** A delivery pool of {@code slots} that records reservations, releases and handovers. */
    private static final class RecordingHandover implements DeliveryHandover {
        volatile int slots = 8;
        final AtomicInteger reserved = new AtomicInteger();
        final AtomicInteger released = new AtomicInteger();
        final List<TaskId> handedOver = new CopyOnWriteArrayList<>();

        @Override
        public boolean reserveSlot() {
            if (slots == 0) {
                return false;
            }
            reserved.incrementAndGet();
            return true;
        }

        @Override
        public void releaseSlot() {
            released.incrementAndGet();
        }

        @Override
        public void handOver(TaskId id, DeliveryTake take, AttentionEvent event) {
            handedOver.add(id);
        }
    }
}
