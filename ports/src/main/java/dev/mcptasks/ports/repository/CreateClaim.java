package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.Objects;

/**
 * The submit claim a create takes for a worker of the creating process, so that worker sends the create request at
 * once instead of finding the row by a claim scan: the row is inserted leased for submit to {@code owner} under
 * {@code token}, expiring at now + {@code lease}, with its first create request already recorded as attempted
 * ({@code submit_attempt_count} 1, {@code submit_attempted_at} now). One commit instead of three (create, claim,
 * attempt record). A worker that dies before sending leaves the row as one that died after sending: another worker
 * takes it over once the lease expires and treats the create request as possibly sent (its server's submit policy).
 *
 * @param owner the worker the row is leased to
 * @param token the claim's token
 * @param lease how long the lease lasts before it is renewed
 */
public record CreateClaim(WorkerId owner, ClaimToken token, Duration lease) {
    public CreateClaim {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(lease, "lease");
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive, was " + lease);
        }
    }
}
