package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import java.util.Objects;

/**
 * One element of a batched fenced write (for example {@link TaskRepository#applyOutcomes}): the claim it is made
 * under and what it writes.
 */
public record ClaimedWrite<W>(Claim claim, W write) {
    public ClaimedWrite {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(write, "write");
    }
}
