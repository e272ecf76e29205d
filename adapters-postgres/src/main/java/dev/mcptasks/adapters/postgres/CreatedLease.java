package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.ports.repository.CreateClaim;
import java.time.Instant;

/**
 * The lease columns {@code insertTask} writes: all null (and no attempt) for a row any scan may claim, or the submit
 * lease of the {@link CreateClaim} the create takes, with its first create request recorded as attempted.
 */
record CreatedLease(String phase, String owner, String token, Instant expiresAt, int attempts, Instant attemptedAt) {
    private static final CreatedLease NONE = new CreatedLease(null, null, null, null, 0, null);

    static CreatedLease of(CreateClaim claim, Instant now) {
        if (claim == null) {
            return NONE;
        }
        return new CreatedLease(ClaimPhase.SUBMIT.wireName(), claim.owner().value(), claim.token().value(),
                Times.millis(now.plus(claim.lease())), 1, now);
    }
}
