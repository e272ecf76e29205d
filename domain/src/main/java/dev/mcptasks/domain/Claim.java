package dev.mcptasks.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One claim generation on one row: every durable write made on its behalf is fenced by id, phase, owner and token.
 * {@code expiresAt} is the expiry granted when the claim was taken (renewals move it in the store, not here).
 */
public record Claim(TaskId taskId, ClaimPhase phase, WorkerId owner, ClaimToken token, Instant expiresAt) {
    public Claim {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
