package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A control scan that finds nothing due takes no write lock: it neither waits behind nor holds up the writes of
 * calls in flight (in this process, or another process's writer, simulated here by a held {@code BEGIN IMMEDIATE}).
 */
class SqliteEmptyScanTest {
    private static final WorkerId WORKER = WorkerId.of("w1");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();

    @Test
    void aScanWithNothingDueAnswersWhileAnotherConnectionHoldsTheWriteLock() throws Exception {
        Path file = dir.resolve("tasks.db");
        SqliteSettings impatient = new SqliteSettings(SqliteSettings.URL_PREFIX + file, Duration.ofMillis(100), 1);
        try (CloseableTaskRepository repository =
                SqliteTaskRepositories.open(impatient, clock, ids, FencedWriteHook.NONE)) {
            repository.create(SqliteFixture.newTask("mine"));
            try (Connection other = SeedRows.connect(file); Statement lock = other.createStatement()) {
                lock.execute("BEGIN IMMEDIATE");
                for (ClaimPhase phase : new ClaimPhase[] {ClaimPhase.POLL, ClaimPhase.CANCEL}) {
                    assertThat(repository.claimControl(request(phase, Set.of()))).isEmpty();
                }
                // the only due row is excluded (its call is still draining here): nothing to claim either
                assertThat(repository.claimControl(request(ClaimPhase.SUBMIT, Set.of(TaskId.of("mine")))))
                        .isEmpty();
                // a due row still needs the write lock: the scan waits for it, as before
                assertThatThrownBy(() -> repository.claimControl(request(ClaimPhase.SUBMIT, Set.of())))
                        .isInstanceOf(TransientRepositoryException.class);
                lock.execute("ROLLBACK");
            }
            assertThat(repository.claimControl(request(ClaimPhase.SUBMIT, Set.of()))).singleElement()
                    .satisfies(claimed -> assertThat(claimed.claim().taskId()).isEqualTo(TaskId.of("mine")));
        }
    }

    private static ControlClaimRequest request(ClaimPhase phase, Set<TaskId> excluded) {
        return new ControlClaimRequest(phase, WORKER, 4, Duration.ofSeconds(60), Duration.ofSeconds(30), excluded);
    }
}
