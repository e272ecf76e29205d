package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The notification outbox: the delivery claims of the notify phase, their fenced writes, and the dead letters an
 * operator reads and replays. A delivery lease is independent of the row's control claim.
 *
 *
 * <p><b>Notification events.</b> Writes that carry an {@code AttentionEvent} record it only when its fingerprint
 * differs from the stored {@code event_fingerprint}: then {@code event_version + 1}, fingerprint and payload are
 * stored, the outbox status follows {@code NotificationRules.afterNewEvent}, and {@code next_notification_at} is set
 * to now when the status became pending. A submit or outcome write that carries a {@link DeliveryTake} also takes that
 * event's delivery in the same statement when the take's conditions hold (see there): the outbox becomes dispatched to
 */
public interface NotificationOutbox {
    /**
     * Claims deliveries: rows with {@code event_version > notified_version}, outbox status pending, claimed,
     * dispatched or retry, {@code next_notification_at <= now}, notification lease free. Pending and retry rows
     * freeze the newest event ({@code dispatch_version = event_version}, {@code dispatch_event = event_payload}), and
     * when that moves to a newer version the attempt budget restarts ({@code dispatch_attempt} and
     * {@code notification_attempt_count} 0); claimed and dispatched rows (an expired delivery) keep their frozen
     * event. All become claimed with a fresh notification lease. Rows are taken ordered by
     * {@code next_notification_at} then id, at most {@code limit}.
     */
    List<NotificationClaim> claimNotifications(NotificationClaimRequest request);

    /** Marks the frozen event as being sent: status dispatched, {@code dispatch_attempt + 1}. Fence: notification owner, token, status claimed, unexpired. */
    boolean markDispatched(NotificationClaim claim);

    /**
     * {@link #claimNotifications} and {@link #markDispatched} of every claim as one write: each delivery comes back
     * already dispatched (status dispatched, {@code dispatch_attempt} equal to the claim's attempt), ready for its
     * sink, so a delivery costs the store one write fewer. A worker that dies between this write and its sink call
     * has counted an attempt it never made, as one that dies between the mark and the call always could: the next
     * claim keeps the frozen event and only moves the idempotency key on. The default runs the two in sequence and
     * releases a claim whose mark was refused.
     */
    default List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        List<NotificationClaim> claims = claimNotifications(request);
        List<Boolean> marked = markAllDispatched(claims);
        List<NotificationClaim> dispatched = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            if (marked.get(i)) {
                dispatched.add(claims.get(i));
            } else {
                releaseNotification(claims.get(i));
            }
        }
        return dispatched;
    }

    /**
     * Delivered: {@code notified_version = dispatch_version}; status per {@code NotificationRules.afterDelivered}
     * (a newer version stays pending, due now); error cleared; lease cleared. Fence: owner, token, status dispatched.
     */
    boolean finishNotification(NotificationClaim claim);

    /**
     * Delivery failed: status retry, error, {@code next_notification_at}, {@code notification_attempt_count + 1}
     * when counted (a busy sink is not counted), lease cleared. Fence: owner, token, status claimed or dispatched.
     */
    boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted);

    /**
     * Gives up on the frozen version: {@code notified_version = dispatch_version}; status per
     * {@code NotificationRules.afterDeadLetter} (a newer version stays pending, due now); error; lease cleared. A row
     * that becomes {@code dead_letter} gets {@code next_notification_at} = now: nothing is due in that state, so the
     * column records when the version died ({@link #listDeadLetters} orders by it). Fence: owner, token, status
     * claimed or dispatched.
     */
    boolean deadLetterNotification(NotificationClaim claim, String error);

    /**
     * Cancellation release of a delivery: clears the notification lease; a claimed row goes back to pending, a
     * dispatched one stays dispatched (its frozen event may have reached the sink). Fence: owner, token.
     */
    boolean releaseNotification(NotificationClaim claim);

    /**
     * A page of dead letters: rows whose outbox status is {@code dead_letter}, newest first (by
     * {@code next_notification_at}, the time the version died, then id, both descending), at most the query's limit,
     * after its cursor. An operator's read: no store keeps an index for it (an index on the outbox status would cost
     * every delivery write its in-place update on PostgreSQL), so it scans the table.
     */
    List<TaskRecord> listDeadLetters(DeadLetterQuery query);

    /**
     * Makes a dead letter deliverable again: one conditional UPDATE, only while the outbox status is
     * {@code dead_letter} (a user action, not fenced by a lease: a dead letter has none, and whatever moved the row
     * out of that state since it was read, a concurrent replay or a newer event, wins and the replay changes nothing:
     * {@link ReplayOutcome#NOT_DEAD}). It sets status pending, {@code notified_version = dispatch_version - 1} (the
     * version that died is owed again), {@code notification_attempt_count} 0 (a fresh budget of counted failures),
     * {@code next_notification_at} now. It keeps {@code dispatch_attempt}, so the replay's sends carry idempotency
     * keys no earlier send had (a receiver that deduplicates on them does not drop the replay), and keeps the error,
     * so the reason it died shows until the next attempt replaces it (delivery clears it). The next claim freezes
     * the row's newest event, as it does for any pending row: the same version that died (a dead letter's event
     * version is its dispatch version), unless a newer event was recorded between the replay and that claim, which
     * is then delivered instead with its own fresh budget (the older version is superseded, as it would be by a
     * retry). A newer event recorded <i>before</i> the replay has already made the row pending
     * ({@code NotificationRules.afterNewEvent}), so that newer version is delivered without any replay, and the
     * replay answers {@link ReplayOutcome#NOT_DEAD}. Signals work arrival like {@link TaskRecords#requestCancel}.
     */
    ReplayOutcome replayDeadLetter(TaskId id);

    // ---- Batched fenced writes: as {@link TaskClaims} describes them (each element its own fence and outcome) ---

    /** {@link #markDispatched} of every delivery. */
    default List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
        return claims.stream().map(this::markDispatched).toList();
    }

    /** {@link #finishNotification} of every delivery. */
    default List<Boolean> finishNotifications(List<NotificationClaim> claims) {
        return claims.stream().map(this::finishNotification).toList();
    }
}
