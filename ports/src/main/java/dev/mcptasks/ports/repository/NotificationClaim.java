package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import java.time.Instant;

/**
 * A claimed delivery: the frozen event of one version.
 *
 * @param attempt the attempt number this delivery will be (dispatch attempt + 1)
 */
public record NotificationClaim(TaskId taskId, WorkerId owner, ClaimToken token, Instant expiresAt, long version,
        String eventJson, int attempt) {

    public String idempotencyKey() {
        return NotificationRules.idempotencyKey(taskId, version, attempt);
    }
}
