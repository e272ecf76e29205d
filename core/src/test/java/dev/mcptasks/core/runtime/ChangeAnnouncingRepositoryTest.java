package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A committed client-visible write is announced with its task id, a write in a transaction only at its end. */
class ChangeAnnouncingRepositoryTest {
    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    private final List<TaskId> announced = new CopyOnWriteArrayList<>();
    private final ChangeAnnouncingRepository repository = new ChangeAnnouncingRepository(store, announced::add);

    @Test
    void anAcceptedWriteIsAnnouncedAndARefusedOneIsNot() {
        Claim claim = submitClaim();
        assertThat(repository.recordSubmitAttempt(claim)).isTrue();
        assertThat(announced).as("a submit attempt changes nothing a client reads").isEmpty();

        assertThat(repository.applySubmitted(claim, working())).isTrue();
        assertThat(announced).containsExactly(claim.taskId());

        assertThat(repository.applySubmitted(claim, working())).as("the claim is spent").isFalse();
        assertThat(announced).hasSize(1);
    }

    @Test
    void aWriteInsideATransactionIsAnnouncedOnlyAfterTheTransactionReturned() {
        Claim claim = submitClaim();
        repository.recordSubmitAttempt(claim);
        repository.inOneTransaction(() -> {
            assertThat(repository.applySubmitted(claim, working())).isTrue();
            assertThat(announced).as("not committed yet").isEmpty();
            return null;
        });
        assertThat(announced).containsExactly(claim.taskId());
    }

    @Test
    void aTransactionThatThrowsAnnouncesNothing() {
        Claim claim = submitClaim();
        repository.recordSubmitAttempt(claim);
        assertThatThrownBy(() -> repository.inOneTransaction(() -> {
            repository.applySubmitted(claim, working());
            throw new IllegalStateException("rolled back");
        })).hasMessage("rolled back");
        assertThat(announced).isEmpty();
    }

    private Claim submitClaim() {
        TaskId id = ids.newTaskId();
        store.create(new NewTask(id, "alpha", "tool", "{}", "mcp-tasks", null, null));
        return store.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("w"), 1,
                Duration.ofSeconds(120), Duration.ofSeconds(30), Set.of())).get(0).claim();
    }

    private SubmitWrite working() {
        return new SubmitWrite("remote-1", new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null),
                600_000L, "2025-11-25", null, clock.now(), null);
    }
}
