package dev.mcptasks.core.runtime;

/** How one renewal attempt of a control claim ended. Anything but {@link Renewed} means ownership is lost. */
public sealed interface RenewalOutcome {

    /** The store extended the claim; it is confirmed until {@code confirmedUntilNanos} on the monotonic clock. */
    record Renewed(long confirmedUntilNanos) implements RenewalOutcome {}

    /** The store refused: expired, replaced by a new token, terminal, or a poll superseded by a cancel request. */
    record Rejected(String reason) implements RenewalOutcome {}

    /** The store threw: it cannot confirm the claim. */
    record Failed(Throwable cause) implements RenewalOutcome {}

    /** The attempt did not finish within its deadline (a third of the lease): the call runs unmonitored. */
    record Stalled(java.time.Duration deadline) implements RenewalOutcome {}

    default boolean renewed() {
        return this instanceof Renewed;
    }

    /** A short description for logs and the ownership-loss fence. */
    default String describe() {
        if (this instanceof Renewed) {
            return "renewed";
        } else if (this instanceof Rejected r) {
            return "renewal rejected: " + r.reason();
        } else if (this instanceof Failed f) {
            return "renewal failed: " + f.cause();
        } else {
            return "renewal stalled past its deadline of " + ((Stalled) this).deadline();
        }
    }
}
