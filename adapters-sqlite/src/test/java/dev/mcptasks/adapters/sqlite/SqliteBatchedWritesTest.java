package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.adapters.sqlite.DirectStatement.Param;
import dev.mcptasks.adapters.sqlite.SqlParams.Fence;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.contract.ContractFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ibatis.executor.Executor;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Signature;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite batched writes beyond the shared contract: they bypass MyBatis per element (as do the claim scans per
 * candidate), a batch outside a group commit is still one transaction, and the parameters the contract's batches never set (an input round, delivered
 * answers, a request state) bind as the single writes bind them.
 */
class SqliteBatchedWritesTest extends ContractFixture {
    @TempDir
    Path dir;

    private SqliteDatabase database;
    private final AtomicInteger mybatisUpdates = new AtomicInteger();

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        database = SqliteDatabase.open(SqliteFixture.settings(dir.resolve("tasks.db")), clock);
        // installed before the writer session opens (the first write), so its executor is wrapped
        database.configuration().addInterceptor(new UpdateCounter(mybatisUpdates));
        return new SqliteTaskRepository(database, clock, ids, hook);
    }

    @Override
    protected void ageWorkerHeartbeats(Duration by) {
        throw new UnsupportedOperationException("not used here");
    }

    @Test
    void batchesAndSingleWritesRunWithoutAMyBatisStatementEach() {
        List<Claim> claims = List.of(claimRow(ClaimPhase.POLL, A, working()), claimRow(ClaimPhase.POLL, A, working()),
                claimRow(ClaimPhase.POLL, A, working()));
        advance(Duration.ofSeconds(1));
        mybatisUpdates.set(0);

        List<Boolean> batch = repo.inOneTransaction(() -> repo.renewAll(claims, LEASE));
        int byBatch = mybatisUpdates.getAndSet(0);
        List<Boolean> singles = repo.inOneTransaction(
                () -> claims.stream().map(claim -> repo.renew(claim, LEASE)).toList());
        int bySingles = mybatisUpdates.getAndSet(0);
        assertThat(repo.recordProgress(claims.get(0), "half way")).isTrue();

        assertThat(batch).containsExactly(true, true, true);
        assertThat(singles).containsExactly(true, true, true);
        assertThat(byBatch).isZero();
        assertThat(bySingles).as("a single renewal is a batch of one").isZero();
        assertThat(mybatisUpdates.get()).as("a progress write, counted by the same interceptor").isEqualTo(1);
        assertThat(record(claims.get(2).taskId()).lease().expiresAt()).isEqualTo(now().plus(LEASE));
    }

    @Test
    void claimScansRunNoMyBatisUpdatePerCandidate() {
        TaskId polled = working();
        TaskId submitted = create();
        TaskId delivered = completedWithEvent();
        mybatisUpdates.set(0);

        assertThat(claimedIds(ClaimPhase.SUBMIT, B, 10)).containsExactly(submitted);
        assertThat(claimedIds(ClaimPhase.POLL, B, 10)).containsExactly(polled);
        assertThat(claimNotifications(B, 10)).extracting(NotificationClaim::taskId).containsExactly(delivered);

        assertThat(mybatisUpdates.get()).isZero();
    }

    @Test
    void aBatchOutsideAGroupCommitIsOneTransactionThatKeepsNothingWhenAnElementFails() {
        TaskId existing = working();
        Claim first = claimRow(ClaimPhase.SUBMIT, A, create());
        Claim second = claimRow(ClaimPhase.SUBMIT, A, create());
        TaskRecord firstBefore = record(first.taskId());

        assertThatThrownBy(() -> repo.applySubmittedAll(List.of(
                new ClaimedWrite<>(first, submitted("r-fresh", null)),
                new ClaimedWrite<>(second, submitted("r-" + existing, null)))))
                .isInstanceOf(DuplicateTaskException.class)
                .hasMessageContaining("apply_submitted of task " + second.taskId().value())
                .hasMessageContaining("r-" + existing);

        assertThat(record(first.taskId())).isEqualTo(firstBefore);
        assertThat(repo.recordSubmitAttempts(List.of(first, second))).containsExactly(true, true);
    }

    @Test
    void anInputRoundAndItsAnsweredResendThroughBatchesEqualSingleWrites() {
        Claim batched = submitClaim(create());
        Claim single = submitClaim(create());
        advance(Duration.ofSeconds(1));

        assertThat(repo.applySubmittedAll(List.of(new ClaimedWrite<>(batched, round(batched.taskId())))))
                .containsExactly(true);
        assertThat(repo.applySubmitted(single, round(single.taskId()))).isTrue();
        assertSameRow(batched.taskId(), single.taskId());
        assertThat(record(batched.taskId()).state().requestState()).isEqualTo("state-1");

        for (Claim claim : List.of(batched, single)) {
            assertThat(repo.answerInput(claim.taskId(), "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        }
        Claim resent = submitClaim(batched.taskId());
        Claim resentAlone = submitClaim(single.taskId());
        advance(Duration.ofSeconds(1));

        assertThat(repo.applySubmittedAll(List.of(new ClaimedWrite<>(resent,
                submitted("r-" + resent.taskId(), A))))).containsExactly(true);
        assertThat(repo.applySubmitted(resentAlone, submitted("r-" + resentAlone.taskId(), A))).isTrue();
        assertSameRow(batched.taskId(), single.taskId());
        assertThat(record(batched.taskId()).state().createdBy()).isEqualTo(A);
    }

    @Test
    void anOutcomeThatDeliveredAnswersThroughABatchEqualsTheSingleWrite() {
        TaskId batchedId = remoteInputRequired();
        TaskId singleId = remoteInputRequired();
        for (TaskId id : List.of(batchedId, singleId)) {
            assertThat(repo.answerInput(id, "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
        }
        String delivered = record(batchedId).state().inputResponsesJson();
        Claim batched = claimRow(ClaimPhase.POLL, A, batchedId);
        Claim single = claimRow(ClaimPhase.POLL, A, singleId);
        // a second answer arrives after the claim delivered the first: it stays pending and makes the row due now
        for (TaskId id : List.of(batchedId, singleId)) {
            assertThat(repo.answerInput(id, "colour", "\"red\"")).isEqualTo(AnswerOutcome.ACCEPTED);
        }
        advance(Duration.ofSeconds(2));
        StoredSnapshot working = snapshot(TaskStatus.WORKING);
        OutcomeWrite write = new OutcomeWrite(working, 90_000L, now().plusSeconds(30), null, delivered);

        assertThat(repo.applyOutcomes(List.of(new ClaimedWrite<>(batched, write)))).containsExactly(true);
        assertThat(repo.applyOutcome(single, write)).isTrue();

        assertSameRow(batchedId, singleId);
        TaskRecord row = record(batchedId);
        assertThat(row.control().nextControlAt()).isEqualTo(now());
        assertThat(row.state().inputResponsesJson()).contains("colour");
        assertThat(row.state().remoteTtlMs()).isEqualTo(90_000L);
    }

    @Test
    void aStatementParameterThatIsNotGivenFailsWhenTheUpdateIsBuilt() {
        assertThatThrownBy(() -> DirectStatement.of(database.configuration(), "renew",
                Param.record("f", Fence.class), Param.value("now")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("mapper statement renew uses #{expiresAt}, which is none of its parameters [f, now]");
        assertThatThrownBy(() -> DirectStatement.of(database.configuration(), "renew",
                Param.record("f", SqlParams.NotifyFence.class), Param.value("now"), Param.value("expiresAt")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("mapper statement renew reads #{f.phase}, but NotifyFence has no component phase");
    }

    private Claim submitClaim(TaskId id) {
        Claim claim = claimRow(ClaimPhase.SUBMIT, A, id);
        assertThat(repo.recordSubmitAttempt(claim)).isTrue();
        return claim;
    }

    private SubmitWrite round(TaskId id) {
        StoredSnapshot asked = snapshot(TaskStatus.INPUT_REQUIRED);
        return new SubmitWrite(null, asked, null, "2026-07-28", null, null, eventOf(id, asked), "state-1");
    }

    private TaskId remoteInputRequired() {
        TaskId id = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, id);
        assertThat(repo.applyOutcome(poll, outcome(id, TaskStatus.INPUT_REQUIRED, now().plus(Duration.ofHours(1)))))
                .isTrue();
        return id;
    }

    /** Every field but those that name the row itself (as the contract's batch tests compare). */
    private void assertSameRow(TaskId batched, TaskId single) {
        assertThat(record(batched)).as("row %s written by the batch, against %s written alone", batched, single)
                .usingRecursiveComparison()
                .ignoringFields("id", "state.remoteTaskId", "lease.token", "outbox.eventFingerprint",
                        "outbox.eventPayload", "outbox.dispatchEvent", "outbox.leaseToken")
                .isEqualTo(record(single));
    }

    /** Counts the UPDATE statements MyBatis executes on the writer. */
    @Intercepts(@Signature(type = Executor.class, method = "update", args = {MappedStatement.class, Object.class}))
    private static final class UpdateCounter implements Interceptor {
        private final AtomicInteger updates;

        UpdateCounter(AtomicInteger updates) {
            this.updates = updates;
        }

        @Override
        public Object intercept(Invocation invocation) throws Throwable {
            updates.incrementAndGet();
            return invocation.proceed();
        }

        @Override
        public void setProperties(Properties properties) {}
    }
}
