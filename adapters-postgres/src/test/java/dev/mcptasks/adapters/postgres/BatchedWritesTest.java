package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The batched fenced writes run as one statement after every element's hook: when the hook of the last element runs,
 * no element's row has been written yet (a loop of single writes would have committed the first one already). The
 * contract (BatchWriteContract) proves each element's effect equals its single write.
 */
class BatchedWritesTest {
    private static final WorkerId WORKER = WorkerId.of("worker-a");
    private static final Duration LEASE = Duration.ofMinutes(2);
    private static final StoredSnapshot WORKING = new StoredSnapshot(TaskStatus.WORKING, null, null, false, null,
            null, null);
    private static final StoredSnapshot COMPLETED = new StoredSnapshot(TaskStatus.COMPLETED, null, "{\"ok\":true}",
            false, null, null, null);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final List<String> rowsSeenByHooks = new ArrayList<>();
    private PostgresSettings settings;
    private CloseableTaskRepository repository;
    private TaskId watched;

    @BeforeEach
    void open() {
        settings = PostgresTestDatabase.freshSchema();
        repository = PostgresTaskRepositories.open(settings, clock, ids, (write, taskId) -> {
            if (watched != null) {
                rowsSeenByHooks.add(write + " " + taskId + ": " + row(watched));
            }
        });
    }

    @AfterEach
    void close() {
        repository.close();
    }

    @Test
    void renewAllWritesNothingBeforeTheLastElementsHook() {
        List<Claim> claims = List.of(working(), working(), working());
        clock.advance(Duration.ofSeconds(5));

        assertNoRowWrittenBeforeLastHook(claims.get(0).taskId(), () -> repository.renewAll(claims, LEASE), 3);
    }

    @Test
    void recordSubmitAttemptsWritesNothingBeforeTheLastElementsHook() {
        List<Claim> claims = List.of(submitting(), submitting());

        assertNoRowWrittenBeforeLastHook(claims.get(0).taskId(), () -> repository.recordSubmitAttempts(claims), 2);
    }

    @Test
    void applySubmittedAllWritesNothingBeforeTheLastElementsHook() {
        List<Claim> claims = List.of(submitting(), submitting());
        List<ClaimedWrite<SubmitWrite>> writes = claims.stream()
                .map(claim -> new ClaimedWrite<>(claim, submitted("r-" + claim.taskId()))).toList();

        assertNoRowWrittenBeforeLastHook(claims.get(0).taskId(), () -> repository.applySubmittedAll(writes), 2);
    }

    @Test
    void applyOutcomesWritesNothingBeforeTheLastElementsHook() {
        List<Claim> claims = List.of(working(), working());
        List<ClaimedWrite<OutcomeWrite>> writes = claims.stream()
                .map(claim -> new ClaimedWrite<>(claim, new OutcomeWrite(COMPLETED, null, null, null))).toList();

        assertNoRowWrittenBeforeLastHook(claims.get(0).taskId(), () -> repository.applyOutcomes(writes), 2);
    }

    @Test
    void markAllDispatchedAndFinishNotificationsWriteNothingBeforeTheLastElementsHook() {
        List<NotificationClaim> deliveries = deliveries(2);

        assertNoRowWrittenBeforeLastHook(deliveries.get(0).taskId(),
                () -> repository.markAllDispatched(deliveries), 2);
        rowsSeenByHooks.clear();
        assertNoRowWrittenBeforeLastHook(deliveries.get(0).taskId(),
                () -> repository.finishNotifications(deliveries), 2);
    }

    @Test
    void aBatchNamingOneRowTwiceIsRefusedWithoutWritingAnything() {
        Claim claim = working();
        String before = row(claim.taskId());

        assertThatThrownBy(() -> repository.renewAll(List.of(claim, claim), LEASE.multipliedBy(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names task " + claim.taskId() + " twice");
        assertThat(row(claim.taskId())).isEqualTo(before);
    }

    /** Runs {@code batch}, whose first element's row is {@code first}, and checks what every hook call saw. */
    private void assertNoRowWrittenBeforeLastHook(TaskId first, java.util.function.Supplier<List<Boolean>> batch,
            int elements) {
        String before = row(first);
        watched = first;
        List<Boolean> outcomes;
        try {
            outcomes = batch.get();
        } finally {
            watched = null;
        }

        assertThat(outcomes).hasSize(elements).containsOnly(true);
        assertThat(rowsSeenByHooks).hasSize(elements)
                .allSatisfy(seen -> assertThat(seen).endsWith(": " + before));
        assertThat(row(first)).as("the batch changed the row").isNotEqualTo(before);
    }

    private Claim submitting() {
        repository.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
        return claim(ClaimPhase.SUBMIT);
    }

    private Claim working() {
        Claim submit = submitting();
        assertThat(repository.applySubmitted(submit, submitted("r-" + submit.taskId()))).isTrue();
        clock.advance(Duration.ofSeconds(1));
        return claim(ClaimPhase.POLL);
    }

    private Claim claim(ClaimPhase phase) {
        return repository.claimControl(new ControlClaimRequest(phase, WORKER, 1, LEASE, Duration.ofSeconds(30),
                Set.of())).get(0).claim();
    }

    private SubmitWrite submitted(String remoteId) {
        return new SubmitWrite(remoteId, WORKING, null, "v", null, clock.now(), null);
    }

    private List<NotificationClaim> deliveries(int count) {
        for (int i = 0; i < count; i++) {
            Claim poll = working();
            AttentionEvent event = AttentionEvent.forSnapshot(poll.taskId(), "srv", "tool", COMPLETED).orElseThrow();
            assertThat(repository.applyOutcome(poll, new OutcomeWrite(COMPLETED, null, null, event))).isTrue();
        }
        List<NotificationClaim> deliveries = repository.claimNotifications(new NotificationClaimRequest(WORKER,
                count, LEASE));
        assertThat(deliveries).hasSize(count);
        return deliveries;
    }

    /** The whole row as text, read on a connection of its own (outside any transaction of the repository). */
    private String row(TaskId id) {
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement read = connection.prepareStatement(
                        "SELECT row_to_json(t)::text FROM tasks t WHERE id = ?")) {
            read.setString(1, id.value());
            try (ResultSet rows = read.executeQuery()) {
                assertThat(rows.next()).as("row of %s", id).isTrue();
                return rows.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
