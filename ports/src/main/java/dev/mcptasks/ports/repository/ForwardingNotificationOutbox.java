package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import java.time.Instant;
import java.util.List;

/**
 * An outbox that forwards every call to {@link #delegate()}: a decorator of the outbox overrides only the calls it
 * watches. As in {@link ForwardingTaskClaims}, the batched writes ({@link #markAllDispatched},
 * {@link #finishNotifications}) are not forwarded: their defaults call this decorator's single writes.
 */
public interface ForwardingNotificationOutbox extends NotificationOutbox {
    /** The outbox the next call goes to. */
    NotificationOutbox delegate();

    @Override
    default List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return delegate().claimNotifications(request);
    }

    @Override
    default List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return delegate().claimNotificationsDispatched(request);
    }

    @Override
    default boolean markDispatched(NotificationClaim claim) {
        return delegate().markDispatched(claim);
    }

    @Override
    default boolean finishNotification(NotificationClaim claim) {
        return delegate().finishNotification(claim);
    }

    @Override
    default boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return delegate().retryNotification(claim, error, nextAt, counted);
    }

    @Override
    default boolean deadLetterNotification(NotificationClaim claim, String error) {
        return delegate().deadLetterNotification(claim, error);
    }

    @Override
    default boolean releaseNotification(NotificationClaim claim) {
        return delegate().releaseNotification(claim);
    }

    @Override
    default List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        return delegate().listDeadLetters(query);
    }

    @Override
    default ReplayOutcome replayDeadLetter(TaskId id) {
        return delegate().replayDeadLetter(id);
    }
}
