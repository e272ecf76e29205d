package dev.mcptasks.testkit;

import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** The notification outbox of the in-memory repository: delivery claims and their fenced writes. */
final class InMemoryOutbox {
    private static final Comparator<TaskRow> DUE_ORDER =
            Comparator.<TaskRow, Instant>comparing(row -> row.nextNotificationAt).thenComparing(row -> row.id);

    private final InMemoryStore store;

    InMemoryOutbox(InMemoryStore store) {
        this.store = store;
    }

    /**
     * Claims due deliveries; with {@code dispatch}, marks each dispatched in the same step (one store write, see
     * {@code TaskRepository#claimNotificationsDispatched}).
     */
    List<NotificationClaim> claim(NotificationClaimRequest request, boolean dispatch) {
        synchronized (store.lock) {
            Instant now = store.now();
            List<TaskRow> candidates = new ArrayList<>();
            for (TaskRow row : store.rows.values()) {
                if (row.eventVersion > row.notifiedVersion
                        && NotificationStatus.CLAIMABLE.contains(row.notificationStatus)
                        && row.nextNotificationAt != null && !row.nextNotificationAt.isAfter(now)
                        && row.notificationLeaseFree(now)) {
                    candidates.add(row);
                }
            }
            candidates.sort(DUE_ORDER);
            Instant expiresAt = InMemoryStore.expiry(now, request.lease());
            List<NotificationClaim> claimed = new ArrayList<>();
            for (TaskRow row : candidates.subList(0, Math.max(0, Math.min(request.limit(), candidates.size())))) {
                // an expired in-flight delivery keeps its frozen event: it may already have reached the sink
                if (NotificationRules.claimRebuilds(row.notificationStatus)) {
                    if (NotificationRules.resetsBudget(row.eventVersion, row.dispatchVersion)) {
                        row.dispatchAttempt = 0;
                        row.notificationAttemptCount = 0;
                    }
                    row.dispatchVersion = row.eventVersion;
                    row.dispatchEvent = row.eventPayload;
                }
                int attempt = row.dispatchAttempt + 1;
                row.notificationStatus = dispatch ? NotificationStatus.DISPATCHED : NotificationStatus.CLAIMED;
                row.dispatchAttempt = dispatch ? attempt : row.dispatchAttempt;
                row.notificationLeaseOwner = request.worker();
                row.notificationLeaseToken = store.ids().newClaimToken();
                row.notificationLeaseExpiresAt = expiresAt;
                claimed.add(new NotificationClaim(row.id, request.worker(), row.notificationLeaseToken, expiresAt,
                        row.dispatchVersion, row.dispatchEvent, attempt));
            }
            return claimed;
        }
    }

    boolean markDispatched(NotificationClaim claim) {
        return store.fenced(FencedWrite.NOTIFY_DISPATCH, claim.taskId(),
                (row, now) -> row.holdsNotification(claim) && row.notificationStatus == NotificationStatus.CLAIMED
                        && row.notificationLeaseExpiresAt.isAfter(now),
                (row, now) -> {
                    row.notificationStatus = NotificationStatus.DISPATCHED;
                    row.dispatchAttempt++;
                });
    }

    boolean finish(NotificationClaim claim) {
        return store.fenced(FencedWrite.NOTIFY_FINISH, claim.taskId(),
                (row, now) -> row.holdsNotification(claim) && row.notificationStatus == NotificationStatus.DISPATCHED,
                (row, now) -> {
                    row.notificationError = null;
                    row.settleDispatch(NotificationRules.afterDelivered(row.eventVersion, row.dispatchVersion), now);
                });
    }

    boolean retry(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        Objects.requireNonNull(nextAt, "nextAt");
        String capped = SnapshotNormalizer.cap(error, SnapshotNormalizer.MAX_ERROR_CHARS);
        return store.fenced(FencedWrite.NOTIFY_RETRY, claim.taskId(),
                (row, now) -> row.holdsNotification(claim) && row.notificationStatus.isInFlight(),
                (row, now) -> {
                    row.notificationStatus = NotificationStatus.RETRY;
                    row.notificationError = capped;
                    row.nextNotificationAt = InMemoryStore.millis(nextAt);
                    if (counted) {
                        row.notificationAttemptCount++;
                    }
                    row.clearNotificationLease();
                });
    }

    boolean deadLetter(NotificationClaim claim, String error) {
        String capped = SnapshotNormalizer.cap(error, SnapshotNormalizer.MAX_ERROR_CHARS);
        return store.fenced(FencedWrite.NOTIFY_DEAD_LETTER, claim.taskId(),
                (row, now) -> row.holdsNotification(claim) && row.notificationStatus.isInFlight(),
                (row, now) -> {
                    row.notificationError = capped;
                    row.settleDispatch(NotificationRules.afterDeadLetter(row.eventVersion, row.dispatchVersion), now);
                    if (row.notificationStatus == NotificationStatus.DEAD_LETTER) {
                        row.nextNotificationAt = now; // when it died: nothing is due in this state
                    }
                });
    }

    /** Newest first: when the version died, then id, both descending. */
    List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        Objects.requireNonNull(query, "query");
        synchronized (store.lock) {
            List<TaskRow> dead = new ArrayList<>();
            for (TaskRow row : store.rows.values()) {
                if (row.notificationStatus == NotificationStatus.DEAD_LETTER && before(row, query.before())) {
                    dead.add(row);
                }
            }
            dead.sort(DUE_ORDER.reversed());
            return dead.stream().limit(query.limit()).map(TaskRow::toRecord).toList();
        }
    }

    private static boolean before(TaskRow row, DeadLetterQuery.Cursor cursor) {
        if (cursor == null) {
            return true;
        }
        int byTime = row.nextNotificationAt.compareTo(cursor.deadLetteredAt());
        return byTime < 0 || (byTime == 0 && row.id.compareTo(cursor.id()) < 0);
    }

    /** Conditional on the status alone: whatever moved the row out of dead_letter first wins. */
    ReplayOutcome replay(TaskId id) {
        Objects.requireNonNull(id, "id");
        synchronized (store.lock) {
            TaskRow row = store.rows.get(id);
            if (row == null) {
                return ReplayOutcome.NOT_FOUND;
            }
            if (row.notificationStatus != NotificationStatus.DEAD_LETTER) {
                return ReplayOutcome.NOT_DEAD;
            }
            row.notificationStatus = NotificationStatus.PENDING;
            row.notifiedVersion = row.dispatchVersion - 1;
            row.notificationAttemptCount = 0;
            row.nextNotificationAt = store.now();
            return ReplayOutcome.REPLAYED;
        }
    }

    boolean release(NotificationClaim claim) {
        return store.fenced(FencedWrite.NOTIFY_RELEASE, claim.taskId(), (row, now) -> row.holdsNotification(claim),
                (row, now) -> {
                    if (row.notificationStatus == NotificationStatus.CLAIMED) {
                        row.notificationStatus = NotificationStatus.PENDING;
                    }
                    row.clearNotificationLease();
                });
    }
}
