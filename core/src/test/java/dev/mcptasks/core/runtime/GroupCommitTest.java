package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The worker's group commit on the in-memory store: batching, per-write outcomes, fallbacks, stalls, shutdown. */
class GroupCommitTest {
    private static final long WAIT_SECONDS = 20;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final WorkerId WORKER = WorkerId.of("w");

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository memory = new InMemoryTaskRepository(clock, ids);
    private final CountingStore store = new CountingStore(memory, true);
    private final ExecutorService fallback = Executors.newCachedThreadPool();
    private final RuntimeCounters counters = new RuntimeCounters();
    private final List<GroupCommit> commits = new ArrayList<>();
    private final CountDownLatch gate = new CountDownLatch(1);

    @AfterEach
    void shutdown() {
        gate.countDown();
        commits.forEach(GroupCommit::stop);
        fallback.shutdownNow();
    }

    @Test
    void writesQueuedWhileABatchCommitsShareOneTransactionEachWithItsOwnOutcome() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        List<Claim> claims = claims(5);
        List<CompletableFuture<Boolean>> outcomes = new ArrayList<>();
        for (Claim claim : claims) {
            outcomes.add(group.submit(() -> memory.recordSubmitAttempt(claim)));
        }
        Claim lost = claims(1).get(0);
        assertThat(memory.releaseCancelled(lost)).isTrue();
        CompletableFuture<Boolean> refused = group.submit(() -> memory.recordSubmitAttempt(lost));

        gate.countDown();

        assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("first");
        for (CompletableFuture<Boolean> outcome : outcomes) {
            assertThat(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(refused.get(WAIT_SECONDS, TimeUnit.SECONDS)).as("its own fence, its own outcome").isFalse();
        assertThat(store.transactions.get()).as("the six queued writes, one transaction").isEqualTo(1);
        assertThat(counters.commitBatches.get()).isEqualTo(1);
        assertThat(counters.groupedWrites.get()).isEqualTo(6);
        for (Claim claim : claims) {
            assertThat(memory.find(claim.taskId()).orElseThrow().control().submitAttemptedAt()).isEqualTo(clock.now());
        }
    }

    @Test
    void writesOfOneKindShareOneStoreCallEachWithItsOwnOutcome() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        List<Claim> claims = new ArrayList<>(claims(5));
        Claim lost = claims(1).get(0);
        assertThat(memory.releaseCancelled(lost)).isTrue();
        claims.add(lost);
        List<CompletableFuture<Boolean>> outcomes = claims.stream()
                .map(claim -> group.submit(BatchedWrites.RECORD_SUBMIT_ATTEMPT, claim)).toList();

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(outcomes(outcomes)).containsExactly(true, true, true, true, true, false);
        assertThat(store.batches).as("one store call for the six attempts, in queue order")
                .containsExactly(claims.stream().map(Claim::taskId).toList());
        assertThat(store.transactions.get()).isEqualTo(1);
        assertThat(counters.batchedStatements.get()).isEqualTo(1);
        assertThat(counters.batchedWrites.get()).isEqualTo(6);
    }

    @Test
    void aWriteOfTheSameRowInBetweenKeepsALaterWriteOfTheKindInItsPlace() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        List<Claim> claims = claims(2);
        Claim y = claims.get(0);
        Claim x = claims.get(1);
        CompletableFuture<Boolean> attemptY = group.submit(BatchedWrites.RECORD_SUBMIT_ATTEMPT, y);
        CompletableFuture<Boolean> releaseX = group.submitOn(x.taskId(), () -> memory.releaseCancelled(x));
        CompletableFuture<Boolean> attemptX = group.submit(BatchedWrites.RECORD_SUBMIT_ATTEMPT, x);

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(outcomes(List.of(attemptY, releaseX, attemptX)))
                .as("the attempt on x comes after x's release, as queued: its claim is gone")
                .containsExactly(true, true, false);
        assertThat(store.batches).as("no write could share a call").isEmpty();
    }

    @Test
    void aWriteThatNamesNoRowKeepsEveryLaterWriteInItsPlace() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        List<Claim> claims = claims(2);
        CompletableFuture<Boolean> attemptY = group.submit(BatchedWrites.RECORD_SUBMIT_ATTEMPT, claims.get(0));
        CompletableFuture<Boolean> releaseX = group.submit(() -> memory.releaseCancelled(claims.get(1)));
        CompletableFuture<Boolean> attemptX = group.submit(BatchedWrites.RECORD_SUBMIT_ATTEMPT, claims.get(1));

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(outcomes(List.of(attemptY, releaseX, attemptX))).containsExactly(true, true, false);
        assertThat(store.batches).isEmpty();
    }

    @Test
    void twoWritesOfOneRowNeverShareAStoreCall() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        List<Claim> claims = claims(2);
        GroupCommit.Kind<Claim, Boolean> renewals = BatchedWrites.renew(LEASE);
        List<CompletableFuture<Boolean>> outcomes = List.of(group.submit(renewals, claims.get(0)),
                group.submit(renewals, claims.get(0)), group.submit(renewals, claims.get(1)));

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(outcomes(outcomes)).containsExactly(true, true, true);
        assertThat(store.batches).containsExactly(List.of(claims.get(0).taskId(), claims.get(1).taskId()));
    }

    @Test
    void aStoreCallOfManyWritesThatThrowsRunsEachWriteAgainAloneWithItsOwnOutcome() throws Exception {
        CountingStore failing = new CountingStore(memory, true, true);
        GroupCommit group = group(failing);
        CompletableFuture<String> first = holdTheCommitter(group);
        List<Claim> claims = claims(3);
        assertThat(memory.releaseCancelled(claims.get(2))).isTrue();
        List<CompletableFuture<Boolean>> outcomes = claims.stream()
                .map(claim -> group.submit(BatchedWrites.RECORD_SUBMIT_ATTEMPT, claim)).toList();

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(outcomes(outcomes)).containsExactly(true, true, false);
        assertThat(failing.batches).hasSize(1);
        assertThat(counters.batchedStatements.get()).as("nothing committed by a batched call").isZero();
    }

    @Test
    void aWriteThatThrowsRollsTheBatchBackAndEveryOtherWriteRunsAgainAloneWithItsOwnOutcome() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        Claim claim = claims(1).get(0);
        AtomicInteger releases = new AtomicInteger();
        CompletableFuture<Boolean> release = group.submit(() -> {
            releases.incrementAndGet();
            return memory.releaseCancelled(claim);
        });
        AtomicInteger duplicates = new AtomicInteger();
        CompletableFuture<Boolean> duplicate = group.submit(() -> {
            duplicates.incrementAndGet();
            throw new DuplicateTaskException("remote id r-1 is already stored", null);
        });
        CompletableFuture<String> last = group.submit(() -> "last");

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        // true only if the grouped attempt was rolled back: a kept release would make the second one find no claim
        assertThat(release.get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(releases).hasValue(2);
        assertThatThrownBy(() -> GroupCommit.join(duplicate)).isInstanceOf(DuplicateTaskException.class)
                .hasMessageContaining("r-1");
        assertThat(duplicates).as("the write that threw keeps its own failure: it is not run twice").hasValue(1);
        assertThat(last.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("last");
        assertThat(store.transactions.get()).isEqualTo(1);
        assertThat(counters.commitBatches.get()).as("nothing committed as a group").isZero();
    }

    @Test
    void aStoreThatCannotGroupCommitsEachWriteAloneFromThenOn() throws Exception {
        CountingStore ungrouped = new CountingStore(memory, false);
        GroupCommit group = group(ungrouped);
        CompletableFuture<String> first = holdTheCommitter(group);
        CompletableFuture<String> second = group.submit(() -> "second");
        CompletableFuture<String> third = group.submit(() -> "third");

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(third.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("third");
        assertThat(ungrouped.transactions.get()).isEqualTo(1);
        Thread caller = Thread.currentThread();
        assertThat(group.run(Thread::currentThread)).as("one by one, on the caller's thread").isSameAs(caller);
        assertThat(ungrouped.transactions.get()).as("never asked again").isEqualTo(1);
    }

    @Test
    void afterStopWritesRunOnTheCallersThreadAndQueuedOnesAreStillCommitted() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        CompletableFuture<String> queued = group.submit(() -> "queued");

        group.stop();
        Thread caller = Thread.currentThread();
        assertThat(group.run(Thread::currentThread)).isSameAs(caller);
        assertThat(group.submit(() -> "later").get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("later");
        gate.countDown();

        assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(queued.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("queued");
    }

    @Test
    void aBatchStalledPastItsBoundLetsAnotherCommitterRunTheWritesBehindIt() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> hung = holdTheCommitter(group);
        CompletableFuture<String> behind = group.submit(() -> "behind");

        clock.advance(GroupCommit.STALL_AFTER);

        assertThat(behind.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("behind");
        assertThat(hung).isNotDone();
        gate.countDown();
        assertThat(hung.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("first");
    }

    @Test
    void aWriteIssuedWhereAnOutcomeCompletesRunsThereInsteadOfWaitingForItself() throws Exception {
        GroupCommit group = group(store);
        CompletableFuture<String> first = holdTheCommitter(group);
        CompletableFuture<String> outer = group.submit(() -> "outer");
        CompletableFuture<String> nested = new CompletableFuture<>();
        // registered before the outcome exists: the callback runs on the committer that completes it
        outer.thenRun(() -> nested.complete(group.run(() -> Thread.currentThread().getName())));

        gate.countDown();

        first.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(nested.get(WAIT_SECONDS, TimeUnit.SECONDS)).contains("test-commit-");
    }

    private static List<Boolean> outcomes(List<CompletableFuture<Boolean>> futures) throws Exception {
        List<Boolean> outcomes = new ArrayList<>();
        for (CompletableFuture<Boolean> future : futures) {
            outcomes.add(future.get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    private GroupCommit group(TaskRepository repository) {
        GroupCommit group = new GroupCommit(repository, 1, clock, fallback, counters, "test");
        commits.add(group);
        return group;
    }

    /** Queues a write that holds the only committer until {@link #gate} opens; returns once it is running. */
    private CompletableFuture<String> holdTheCommitter(GroupCommit group) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<String> first = group.submit(() -> {
            running.countDown();
            await(gate);
            return "first";
        });
        assertThat(running.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        return first;
    }

    private List<Claim> claims(int count) {
        List<TaskId> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            TaskId id = ids.newTaskId();
            memory.create(new NewTask(id, "srv", "tool", "{}", "driver", null));
            created.add(id);
        }
        return memory.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, count, LEASE,
                Duration.ofSeconds(60), Set.of())).stream().map(c -> c.claim()).toList();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Counts group transactions and records the rows of each batched call of more than one write ({@code grouping
     * == false} models a store that cannot group; {@code failingBatches} one whose batched submit attempts throw
     * after they ran). Only the claims and the store scope are watched.
     */
    static final class CountingStore implements ComposedTaskRepository {
        private final Roles roles;

        final AtomicInteger transactions;
        final List<List<TaskId>> batches;

        CountingStore(TaskRepository delegate, boolean grouping) {
            this(delegate, grouping, false);
        }

        CountingStore(TaskRepository delegate, boolean grouping, boolean failingBatches) {
            this(delegate, grouping, failingBatches, new AtomicInteger(),
                    new java.util.concurrent.CopyOnWriteArrayList<>());
        }

        private CountingStore(TaskRepository delegate, boolean grouping, boolean failingBatches,
                AtomicInteger transactions, List<List<TaskId>> batches) {
            this.roles = ComposedTaskRepository.of(delegate)
                    .withClaims(claims -> new ForwardingTaskClaims() {
                        @Override
                        public TaskClaims delegate() {
                            return claims;
                        }

                        @Override
                        public List<Boolean> recordSubmitAttempts(List<Claim> claimed) {
                            batches.add(claimed.stream().map(Claim::taskId).toList());
                            List<Boolean> recorded = ForwardingTaskClaims.super.recordSubmitAttempts(claimed);
                            if (failingBatches) {
                                throw new IllegalStateException("the batched statement failed");
                            }
                            return recorded;
                        }

                        @Override
                        public List<Boolean> renewAll(List<Claim> claimed, Duration lease) {
                            batches.add(claimed.stream().map(Claim::taskId).toList());
                            return ForwardingTaskClaims.super.renewAll(claimed, lease);
                        }
                    })
                    .withStoreScope(scope -> new ForwardingStoreScope() {
                        @Override
                        public StoreScope delegate() {
                            return scope;
                        }

                        @Override
                        public <T> T inOneTransaction(Supplier<T> work) {
                            transactions.incrementAndGet();
                            if (!grouping) {
                                throw new UnsupportedOperationException("this store cannot group writes");
                            }
                            return ForwardingStoreScope.super.inOneTransaction(work);
                        }
                    });
            this.transactions = transactions;
            this.batches = batches;
        }

        @Override
        public Roles roles() {
            return roles;
        }
    }
}
