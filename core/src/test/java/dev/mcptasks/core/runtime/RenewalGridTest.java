package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Periodic renewals snap to the worker's renewal grid, never later than a third of the lease: heartbeats that started
 * within one grid step of each other renew at the same moment, so their renewals share one store statement.
 */
class RenewalGridTest {
    private static final long WAIT_SECONDS = 20;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration INTERVAL = LEASE.dividedBy(3);

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository memory = new InMemoryTaskRepository(clock, ids);
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final RuntimeCounters counters = new RuntimeCounters();
    private final GroupCommit commits = new GroupCommit(memory, 1, clock, pool, counters, "grid-test");
    private final TaskRepository repository = new GroupCommittingRepository(memory, commits);
    private final Map<TaskId, RenewalOutcome> decided = new ConcurrentHashMap<>();
    private final CountDownLatch twoDecided = new CountDownLatch(2);
    private final RuntimeListener listener = new RuntimeListener() {
        @Override
        public void renewalDecided(TaskId task, RenewalOutcome outcome) {
            decided.put(task, outcome);
            twoDecided.countDown();
        }
    };

    @AfterEach
    void shutdown() {
        commits.stop();
        pool.shutdownNow();
    }

    @Test
    void aHeartbeatStartedWithinOneGridStepOfAnotherRenewsWithItNeverLaterThanItsThird() throws Exception {
        assertThat(LeaseHeartbeat.grid(INTERVAL)).isEqualTo(Duration.ofMillis(250));
        LeaseHeartbeat first = started(claim());
        clock.advance(Duration.ofMillis(100));
        LeaseHeartbeat second = started(claim());

        // the first's third of the lease; the second's is 100 ms later, in the same grid step
        clock.advance(INTERVAL.minusMillis(100));

        assertThat(twoDecided.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("both renewed at the first's third").isTrue();
        assertThat(decided.values()).allMatch(outcome -> outcome instanceof RenewalOutcome.Renewed);
        first.stop();
        second.stop();
    }

    @Test
    void theGridStepIsASixteenthOfTheIntervalBetweenOneAnd250Milliseconds() {
        assertThat(LeaseHeartbeat.grid(Duration.ofMillis(1_600))).isEqualTo(Duration.ofMillis(100));
        assertThat(LeaseHeartbeat.grid(Duration.ofSeconds(40))).isEqualTo(Duration.ofMillis(250));
        assertThat(LeaseHeartbeat.grid(Duration.ofMillis(8))).isEqualTo(Duration.ofMillis(1));
    }

    private Claim claim() {
        TaskId id = ids.newTaskId();
        memory.create(new NewTask(id, "srv", "tool", "{}", "driver", null));
        return memory.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("w"), 1, LEASE,
                Duration.ofSeconds(60), Set.of())).get(0).claim();
    }

    private LeaseHeartbeat started(Claim claim) {
        LeaseHeartbeat heartbeat = new LeaseHeartbeat(claim, clock.nanoTime(), LEASE, repository, clock, pool,
                listener, counters, loss -> {});
        assertThat(heartbeat.confirmedByClaim()).isTrue();
        heartbeat.start();
        return heartbeat;
    }
}
