package dev.mcptasks.adapters.sqlite;

import static dev.mcptasks.adapters.sqlite.DirectStatement.Param.record;
import static dev.mcptasks.adapters.sqlite.DirectStatement.Param.value;

import dev.mcptasks.adapters.sqlite.SqlParams.Fence;
import dev.mcptasks.adapters.sqlite.SqlParams.NotifyFence;
import dev.mcptasks.adapters.sqlite.SqlParams.SnapshotValues;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.ibatis.session.Configuration;

/**
 * The batched fenced writes: every element runs the single write's own UPDATE (the mapper's SQL, by plain JDBC on a
 * statement prepared once per writer session, see {@link DirectStatement}), with the single write's own parameter
 * values, so fence and assignments cannot drift from it; each element's affected-row count is its own outcome. All
 * elements run in one writer transaction (or join the group transaction), with "now" read once the writer is held.
 * The hook runs for every element first, before the writer is taken, as it does before a single write.
 *
 * <p>One statement per element, not one statement per batch: SQLite runs in process, so a statement costs no round
 * trip, and what made a single write dear was MyBatis around it, not SQLite.
 */
final class BatchedWrites {
    private final SqliteDatabase database;
    private final Clock clock;
    private final FencedWriteHook hook;
    private final DirectStatement renew;
    private final DirectStatement recordSubmitAttempt;
    private final DirectStatement applySubmitted;
    private final DirectStatement applyOutcome;
    private final DirectStatement markDispatched;
    private final DirectStatement finishNotification;

    BatchedWrites(SqliteDatabase database, Clock clock, FencedWriteHook hook) {
        this.database = database;
        this.clock = clock;
        this.hook = hook;
        Configuration mapper = database.configuration();
        // the parameters of each statement, in the order of the matching TaskMapper method's
        this.renew = DirectStatement.of(mapper, "renew", record("f", Fence.class), value("now"), value("expiresAt"));
        this.recordSubmitAttempt = DirectStatement.of(mapper, "recordSubmitAttempt", record("f", Fence.class),
                value("now"));
        this.applySubmitted = DirectStatement.of(mapper, "applySubmitted", record("f", Fence.class), value("now"),
                record("w", SnapshotValues.class), value("createdBy"), value("inputRound"), value("requestState"));
        this.applyOutcome = DirectStatement.of(mapper, "applyOutcome", record("f", Fence.class), value("now"),
                record("w", SnapshotValues.class), value("delivered"));
        this.markDispatched = DirectStatement.of(mapper, "markDispatched", record("n", NotifyFence.class),
                value("now"));
        this.finishNotification = DirectStatement.of(mapper, "finishNotification", record("n", NotifyFence.class),
                value("now"));
    }

    List<Boolean> renewAll(List<Claim> claims, Duration lease) {
        long leaseMillis = lease.toMillis();
        return run(FencedWrite.RENEW, renew, claims, Claim::taskId,
                (claim, now) -> new Object[] {FencedWrites.fence(claim), now, now + leaseMillis});
    }

    List<Boolean> recordSubmitAttempts(List<Claim> claims) {
        return run(FencedWrite.RECORD_SUBMIT_ATTEMPT, recordSubmitAttempt, claims, Claim::taskId,
                (claim, now) -> new Object[] {FencedWrites.fence(claim), now});
    }

    /** A duplicate remote id fails the element's statement, and with it the batch, naming that element. */
    List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        return run(FencedWrite.APPLY_SUBMITTED, applySubmitted, writes, write -> write.claim().taskId(),
                (write, now) -> new Object[] {FencedWrites.fence(write.claim()), now,
                        FencedWrites.submittedValues(write.write(), now),
                        FencedWrites.createdBy(write.claim(), write.write()),
                        FencedWrites.inputRound(write.write()), write.write().requestState()});
    }

    List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        return run(FencedWrite.APPLY_OUTCOME, applyOutcome, writes, write -> write.claim().taskId(),
                (write, now) -> new Object[] {FencedWrites.fence(write.claim()), now,
                        FencedWrites.outcomeValues(write.write(), now), write.write().deliveredInputResponsesJson()});
    }

    List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
        return run(FencedWrite.NOTIFY_DISPATCH, markDispatched, claims, NotificationClaim::taskId,
                (claim, now) -> new Object[] {FencedWrites.notifyFence(claim), now});
    }

    List<Boolean> finishNotifications(List<NotificationClaim> claims) {
        return run(FencedWrite.NOTIFY_FINISH, finishNotification, claims, NotificationClaim::taskId,
                (claim, now) -> new Object[] {FencedWrites.notifyFence(claim), now});
    }

    /**
     * Runs {@code update} for every element in order inside one writer transaction. A failing element fails the
     * batch with the error its single write would throw, naming that element.
     */
    private <E> List<Boolean> run(FencedWrite write, DirectStatement update, List<E> elements,
            Function<E, TaskId> taskId, Values<E> values) {
        if (elements.isEmpty()) {
            return List.of();
        }
        for (E element : elements) {
            hook.beforeFencedWrite(write, taskId.apply(element));
        }
        String operation = FencedWrites.describe(write, taskId.apply(elements.get(0)))
                + (elements.size() == 1 ? "" : " and " + (elements.size() - 1) + " more");
        return database.write(operation, session -> {
            long now = clock.now().toEpochMilli();
            List<Boolean> applied = new ArrayList<>(elements.size());
            E element = null;
            try {
                PreparedStatement statement = session.prepared(update);
                for (E each : elements) {
                    element = each;
                    applied.add(update.execute(statement, values.of(each, now)) == 1);
                }
            } catch (SQLException e) {
                throw SqliteErrors.translate(element == null ? operation : describe(write, element, taskId),
                        database.path(), e);
            }
            return applied;
        });
    }

    /** The single write's operation text (applySubmitted names the remote id: a duplicate is about it). */
    private static <E> String describe(FencedWrite write, E element, Function<E, TaskId> taskId) {
        if (element instanceof ClaimedWrite<?> claimed && claimed.write() instanceof SubmitWrite submit) {
            return FencedWrites.describeSubmitted(claimed.claim(), submit);
        }
        return FencedWrites.describe(write, taskId.apply(element));
    }

    /** The parameter values of one element's statement, in the order its {@link DirectStatement} was built with. */
    @FunctionalInterface
    private interface Values<E> {
        Object[] of(E element, long now);
    }
}
