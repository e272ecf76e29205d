package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.NotificationClaim;
import java.time.Instant;

/** What a delivery claim reads back of each row it took, as MyBatis fills it: the claim and its due time. */
final class DeliveryRow {
    String id;
    String notificationLeaseOwner;
    String notificationLeaseToken;
    Instant notificationLeaseExpiresAt;
    long dispatchVersion;
    String dispatchEvent;
    /** The number of this delivery's send: the dispatch attempt the claim counted, or the one a mark will count. */
    int attempt;
    Instant nextNotificationAt;

    NotificationClaim toClaim() {
        return new NotificationClaim(TaskId.of(id), WorkerId.of(notificationLeaseOwner),
                ClaimToken.of(notificationLeaseToken), notificationLeaseExpiresAt, dispatchVersion, dispatchEvent,
                attempt);
    }
}
