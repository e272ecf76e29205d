package dev.mcptasks.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** What the store accepted reaches the metrics, labelled by the claimed definition; refused writes count as such. */
class MeteringRepositoryTest {
    private static final WorkerId A = WorkerId.of("worker-a");
    private static final WorkerId B = WorkerId.of("worker-b");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock();
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final Metrics metrics = new Metrics() {
        @Override
        public void taskSubmitted(String server, String tool, String principal) {
            told.add("submitted " + server + " " + tool + " " + principal);
        }

        @Override
        public void taskFinished(String server, String tool, String principal, TaskStatus outcome) {
            told.add("finished " + server + " " + tool + " " + principal + " " + outcome.wireName());
        }

        @Override
        public void claimsTaken(ClaimPhase phase, int count) {
            if (count > 0) {
                told.add("claims " + phase.wireName() + " " + count);
            }
        }

        @Override
        public void takeover(ClaimPhase phase) {
            told.add("takeover " + phase.wireName());
        }

        @Override
        public void fenceRefused() {
            told.add("refused");
        }
    };
    private final MeteringRepository repository = new MeteringRepository(
            new InMemoryTaskRepository(clock, new SequentialIdGenerator()), metrics, clock);

    private Claim claim(ClaimPhase phase, WorkerId worker) {
        List<ClaimedTask> claimed = repository.claimControl(
                new ControlClaimRequest(phase, worker, 10, LEASE, Duration.ofSeconds(60), Set.of()));
        assertThat(claimed).hasSize(1);
        return claimed.get(0).claim();
    }

    @Test
    void aTaskIsCountedWhenSubmittedAndOnceWhenItsTerminalWriteCommits() {
        TaskId id = TaskId.of("task-1");
        repository.create(new NewTask(id, "ref", "work", "{}", "mcp-tasks", null, "alice"));
        Claim submit = claim(ClaimPhase.SUBMIT, A);
        assertThat(repository.recordSubmitAttempt(submit)).isTrue();
        assertThat(repository.applySubmitted(submit, new SubmitWrite("r-1",
                new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null), 600_000L, "2025-11-25",
                null, clock.now(), null, null, null))).isTrue();
        Claim poll = claim(ClaimPhase.POLL, A);
        OutcomeWrite done = new OutcomeWrite(new StoredSnapshot(TaskStatus.COMPLETED, null, "{}", false, null, null,
                null), null, null, null);

        assertThat(repository.applyOutcome(poll, done)).isTrue();
        assertThat(repository.applyOutcome(poll, done)).as("the claim ended with the row").isFalse();

        assertThat(told).containsExactly("submitted ref work alice", "claims submit 1", "claims poll 1",
                "finished ref work alice completed", "refused");
    }

    /**
     * A call through this process's gateway is created already claimed by its worker: that is a submit claim taken,
     * and its result finishes the task as a scanned claim's would (it was counted nowhere before).
     */
    @Test
    void aTaskCreatedClaimedCountsAsASubmitClaimAndItsResultAsFinished() {
        TaskId id = TaskId.of("task-3");
        CreateClaim claim = new CreateClaim(A, ClaimToken.of("token-3"), LEASE);
        repository.create(new NewTask(id, "ref", "echo", "{}", "mcp-tasks", null, "alice").claimedBy(claim));
        Claim held = new Claim(id, ClaimPhase.SUBMIT, A, claim.token(), clock.now().plus(LEASE));

        assertThat(repository.applySubmitted(held, new SubmitWrite(null,
                new StoredSnapshot(TaskStatus.COMPLETED, null, "{}", false, null, null, null), null, null,
                null, clock.now(), null, null, null))).isTrue();

        assertThat(told).containsExactly("submitted ref echo alice", "claims submit 1",
                "finished ref echo alice completed");
    }

    @Test
    void aTakeoverOfAnExpiredLeaseIsCounted() {
        repository.create(new NewTask(TaskId.of("task-2"), "ref", "work", "{}", "mcp-tasks", null, null));
        Claim first = claim(ClaimPhase.SUBMIT, A);
        clock.advance(LEASE.plusSeconds(1));

        claim(ClaimPhase.SUBMIT, B);
        assertThat(repository.renew(first, LEASE)).isFalse();

        assertThat(told).containsExactly("submitted ref work null", "claims submit 1", "claims submit 1",
                "takeover submit", "refused");
    }
}
