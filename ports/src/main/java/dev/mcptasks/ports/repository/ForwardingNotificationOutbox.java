package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An outbox that forwards every call to {@link #delegate()}: a decorator of the outbox overrides only the calls it
 * watches. As in {@link ForwardingTaskClaims}, the batched writes ({@link #markAllDispatched},
 * {@link #finishNotifications}) are not forwarded: their defaults call this decorator's single writes.
 */
public abstract class ForwardingNotificationOutbox implements NotificationOutbox {
    private final NotificationOutbox delegate;

    protected ForwardingNotificationOutbox(NotificationOutbox delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The outbox the next call goes to. */
    protected NotificationOutbox delegate() {
        return delegate;
    }

    @Override
    public List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return delegate().claimNotifications(request);
    }

    @Override
    public List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return delegate().claimNotificationsDispatched(request);
    }

    @Override
    public boolean markDispatched(NotificationClaim claim) {
        return delegate().markDispatched(claim);
    }

    @Override
    public boolean finishNotification(NotificationClaim claim) {
        return delegate().finishNotification(claim);
    }

    @Override
    public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return delegate().retryNotification(claim, error, nextAt, counted);
    }

    @Override
    public boolean deadLetterNotification(NotificationClaim claim, String error) {
        return delegate().deadLetterNotification(claim, error);
    }

    @Override
    public boolean releaseNotification(NotificationClaim claim) {
        return delegate().releaseNotification(claim);
    }

    @Override
    public List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        return delegate().listDeadLetters(query);
    }

    @Override
    public ReplayOutcome replayDeadLetter(TaskId id) {
        return delegate().replayDeadLetter(id);
    }
}
