package dev.mcptasks.core.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How many of this worker's slots each principal's calls hold, so one principal's long calls cannot hold them all:
 * a principal at its share gets no slot from a create of this process ({@link #tryTake}) and none from a submit
 * scan ({@link #atShare} is left out of it, and a row of a principal that reached its share within the scan is
 * given back at once), so another principal's call still finds a free one. Calls of no principal (the command line,
 * the Java API) are never counted.
 */
final class PrincipalShares {
    private final int share;
    /** Slots held per principal; guarded by this. */
    private final Map<String, Integer> held = new HashMap<>();

    /** @param share the most slots one principal's calls may hold (at least 1) */
    PrincipalShares(int share) {
        if (share < 1) {
            throw new IllegalArgumentException("share must be at least 1, was " + share);
        }
        this.share = share;
    }

    /**
     * The share of a worker of {@code slots} slots: all but a quarter of them (at least one left for the others),
     * and the one slot of a worker that has only one.
     */
    static int of(int slots) {
        return slots <= 1 ? 1 : slots - Math.max(1, slots / 4);
    }

    /** Takes a slot for {@code principal} unless it holds its share already; true for no principal. */
    synchronized boolean tryTake(String principal) {
        if (principal == null) {
            return true;
        }
        int now = held.getOrDefault(principal, 0);
        if (now >= share) {
            return false;
        }
        held.put(principal, now + 1);
        return true;
    }

    /** Whether {@code principal}'s calls hold their share (never for no principal). */
    synchronized boolean full(String principal) {
        return principal != null && held.getOrDefault(principal, 0) >= share;
    }

    /** Counts the slot of an operation of {@code principal} from its launch (checked by {@link #full} before). */
    synchronized void take(String principal) {
        if (principal != null) {
            held.merge(principal, 1, Integer::sum);
        }
    }

    synchronized void release(String principal) {
        if (principal != null) {
            held.computeIfPresent(principal, (key, count) -> count <= 1 ? null : count - 1);
        }
    }

    /** The principals whose calls hold their share now: a submit scan leaves their rows out. */
    synchronized Set<String> atShare() {
        if (held.isEmpty()) {
            return Set.of();
        }
        return held.entrySet().stream().filter(entry -> entry.getValue() >= share).map(Map.Entry::getKey)
                .collect(Collectors.toUnmodifiableSet());
    }
}
