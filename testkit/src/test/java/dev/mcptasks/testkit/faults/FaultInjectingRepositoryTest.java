package dev.mcptasks.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fault injector sees a progress write as the fenced write {@link FencedWrite#RECORD_PROGRESS}. */
class FaultInjectingRepositoryTest {
    private static final WorkerId WORKER = WorkerId.of("worker-a");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    private final FaultInjectingRepository faults = new FaultInjectingRepository(store);

    @Test
    void aProgressWriteIsCountedAndCanBeMadeToFailWithoutReachingTheStore() {
        TaskId id = ids.newTaskId();
        faults.create(new NewTask(id, "alpha", "long_job", "{}", "mcp-tasks", null));
        Claim claim = faults.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, 1, Duration.ofMinutes(1),
                Duration.ofSeconds(30), Set.of())).get(0).claim();
        TaskRecord before = store.find(id).orElseThrow();
        faults.fail(FencedWrite.RECORD_PROGRESS, id, new RepositoryUnavailableException("store down", null));

        assertThatThrownBy(() -> faults.recordProgress(claim, "step 1")).hasMessage("store down");
        assertThat(store.find(id)).contains(before);

        faults.heal(FencedWrite.RECORD_PROGRESS, id);
        assertThat(faults.recordProgress(claim, "step 2")).isTrue();
        assertThat(store.find(id).orElseThrow().state().statusMessage()).isEqualTo("step 2");
        assertThat(faults.attempts(FencedWrite.RECORD_PROGRESS, id)).isEqualTo(2);
    }
}
