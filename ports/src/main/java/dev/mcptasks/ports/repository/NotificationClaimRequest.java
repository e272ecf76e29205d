package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.Objects;

/** A claim scan of the notification outbox. */
public record NotificationClaimRequest(WorkerId worker, int limit, Duration lease) {
    public NotificationClaimRequest {
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(lease, "lease");
    }
}
