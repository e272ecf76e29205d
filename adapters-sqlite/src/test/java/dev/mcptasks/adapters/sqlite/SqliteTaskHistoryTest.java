package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.retention.RetentionStore;
import dev.mcptasks.testkit.contract.TaskHistoryContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the claim-history contract on the same database set-up as the repository contract. */
class SqliteTaskHistoryTest extends TaskHistoryContract {
    @TempDir
    Path dir;

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return SqliteTaskRepositories.open(SqliteFixture.settings(file()), clock, ids, hook);
    }

    @Override
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return SqliteTaskRepositories.open(SqliteFixture.settings(file()), clock, ids, hook);
    }

    @Test
    void aTasksFirstSubmitClaimIsKeptOnItsRowAndWritesNoEventRow() throws SQLException {
        TaskId scanned = create();
        claimRow(ClaimPhase.SUBMIT, A, scanned);
        TaskId createdClaimed = repo.create(new NewTask(ids.newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null)
                .claimedBy(new CreateClaim(A, ids.newClaimToken(), LEASE))).id();

        assertThat(eventRows()).as("rows of task_events").isZero();
        assertThat(historyOf(repo).history(scanned)).singleElement()
                .isEqualTo(new TaskEvent(scanned, now(), TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, A, null, null));
        assertThat(historyOf(repo).history(createdClaimed)).singleElement()
                .isEqualTo(new TaskEvent(createdClaimed, now(), TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, A, null,
                        null));
    }

    @Test
    void aRowWhoseFirstClaimWasRecordedBeforeVersion13GetsNoSecondFirstClaim() throws SQLException {
        TaskId id = create();
        Instant first = now();
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        // as a claim made before V013 left it: the event in task_events, nothing on the row
        try (Connection connection = SeedRows.connect(file());
                PreparedStatement clear = connection.prepareStatement(
                        "UPDATE tasks SET first_claimed_by = NULL, first_claimed_at = NULL WHERE id = ?");
                PreparedStatement event = connection.prepareStatement("INSERT INTO task_events"
                        + " (task_id, at, kind, phase, worker) VALUES (?, ?, 'claimed', 'submit', ?)")) {
            clear.setString(1, id.value());
            clear.executeUpdate();
            event.setString(1, id.value());
            event.setLong(2, first.toEpochMilli());
            event.setString(3, A.value());
            event.executeUpdate();
        }
        assertThat(repo.releaseAfterFailure(claim, failure("connection refused", now().plusSeconds(10)))).isTrue();
        advance(Duration.ofSeconds(10));
        Instant second = now();
        claimRow(ClaimPhase.SUBMIT, B, id);

        assertThat(historyOf(repo).history(id)).containsExactly(
                new TaskEvent(id, first, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, A, null, null),
                new TaskEvent(id, second, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT, B, null, null));
    }

    private long eventRows() throws SQLException {
        try (Connection connection = SeedRows.connect(file());
                PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM task_events");
                ResultSet rows = count.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        try (Connection connection = SeedRows.connect(file());
                PreparedStatement age = connection.prepareStatement(
                        "UPDATE workers SET last_seen_at = last_seen_at - ?")) {
            age.setLong(1, by.toMillis());
            age.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path file() {
        return dir.resolve("tasks.db");
    }

    @Override
    protected TaskHistory historyOf(CloseableTaskRepository repository) {
        return SqliteTaskRepositories.historyOf(repository);
    }

    @Override
    protected RetentionStore retentionOf(CloseableTaskRepository repository) {
        return SqliteTaskRepositories.retentionOf(repository);
    }
}
