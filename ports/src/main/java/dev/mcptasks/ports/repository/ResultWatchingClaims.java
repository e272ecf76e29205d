package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import java.time.Duration;
import java.util.List;

/**
 * Forwarding claims for a decorator that watches what claims write (results, submissions, releases), not their
 * leases: renewals and submit-attempt records go to the delegate as batches, one store statement for many where the
 * store can (the {@link ForwardingTaskClaims} defaults would send them one by one). The other batched writes stay the
 * decorator's to pass on, watching their elements.
 */
public interface ResultWatchingClaims extends ForwardingTaskClaims {
    @Override
    default List<Boolean> renewAll(List<Claim> claims, Duration lease) {
        return delegate().renewAll(claims, lease);
    }

    @Override
    default List<Boolean> recordSubmitAttempts(List<Claim> claims) {
        return delegate().recordSubmitAttempts(claims);
    }
}
