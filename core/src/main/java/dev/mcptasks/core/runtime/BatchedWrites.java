package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.List;

/**
 * The fenced writes a worker makes for many claims at once, as {@link GroupCommit.Kind kinds}: the group commit hands
 * the writes of one kind in a batch to the store's batched form ({@link TaskRepository#renewAll} and the like), one
 * statement for all of them where the store can. Every other write goes to the store one by one.
 */
final class BatchedWrites {
    static final GroupCommit.Kind<Claim, Boolean> RECORD_SUBMIT_ATTEMPT = new GroupCommit.Kind<>(
            FencedWrite.RECORD_SUBMIT_ATTEMPT, "", Claim::taskId, TaskRepository::recordSubmitAttempt,
            TaskRepository::recordSubmitAttempts);

    static final GroupCommit.Kind<ClaimedWrite<SubmitWrite>, Boolean> APPLY_SUBMITTED = new GroupCommit.Kind<>(
            FencedWrite.APPLY_SUBMITTED, "", write -> write.claim().taskId(),
            (store, write) -> store.applySubmitted(write.claim(), write.write()), TaskRepository::applySubmittedAll);

    static final GroupCommit.Kind<ClaimedWrite<OutcomeWrite>, Boolean> APPLY_OUTCOME = new GroupCommit.Kind<>(
            FencedWrite.APPLY_OUTCOME, "", write -> write.claim().taskId(),
            (store, write) -> store.applyOutcome(write.claim(), write.write()), TaskRepository::applyOutcomes);

    static final GroupCommit.Kind<NotificationClaim, Boolean> FINISH_NOTIFICATION = new GroupCommit.Kind<>(
            FencedWrite.NOTIFY_FINISH, "", NotificationClaim::taskId, TaskRepository::finishNotification,
            TaskRepository::finishNotifications);

    private BatchedWrites() {}

    /** Renewals by {@code lease}: renewals share a statement only when their leases are equal. */
    static GroupCommit.Kind<Claim, Boolean> renew(Duration lease) {
        return new GroupCommit.Kind<>(FencedWrite.RENEW, lease.toMillis() + " ms", Claim::taskId,
                (store, claim) -> store.renew(claim, lease), (store, claims) -> store.renewAll(claims, lease));
    }

}
