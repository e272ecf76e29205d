package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Claims that forward every call to {@link #delegate()}: a decorator of the claims role overrides only the calls it
 * watches.
 *
 * <p>The batched writes ({@link #renewAll}, {@link #applyOutcomes} and the like) are deliberately <i>not</i>
 * forwarded: their defaults call this decorator's single writes for every element, so a decorator that watches a
 * single write sees every element of a batch too. A decorator that wants a batch to reach its delegate as one
 * statement overrides the batch form as well (and watches its elements there); {@link ResultWatchingClaims} passes
 * renewals and submit-attempt records on as batches for a decorator that watches neither.
 */
public interface ForwardingTaskClaims extends TaskClaims {
    /** The claims the next call goes to. */
    TaskClaims delegate();

    @Override
    default List<ClaimedTask> claimControl(ControlClaimRequest request) {
        return delegate().claimControl(request);
    }

    @Override
    default boolean renew(Claim claim, Duration lease) {
        return delegate().renew(claim, lease);
    }

    @Override
    default boolean recordSubmitAttempt(Claim claim) {
        return delegate().recordSubmitAttempt(claim);
    }

    @Override
    default boolean applySubmitted(Claim claim, SubmitWrite write) {
        return delegate().applySubmitted(claim, write);
    }

    @Override
    default boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return delegate().applyOutcome(claim, write);
    }

    @Override
    default boolean recordProgress(Claim claim, String statusMessage) {
        return delegate().recordProgress(claim, statusMessage);
    }

    @Override
    default boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return delegate().releaseAfterFailure(claim, write);
    }

    @Override
    default boolean releaseCancelled(Claim claim) {
        return delegate().releaseCancelled(claim);
    }

    @Override
    default boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        return delegate().abandonCancel(claim, reason, nextControlAt);
    }

    @Override
    default boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return delegate().releaseToEndpoint(claim, endpointOwner);
    }
}
