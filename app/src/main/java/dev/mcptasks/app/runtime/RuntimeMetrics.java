package dev.mcptasks.app.runtime;

/**
 * A snapshot of one worker's counters.
 *
 * @param claims control claims taken
 * @param recoveries claims of rows whose previous lease had expired (another worker, or this one, died or stalled)
 * @param renewals successful lease renewals (including the verification before each call)
 * @param fencedWrites writes the store refused because the claim was gone (a normal outcome, never retried)
 * @param ownershipLosses claims lost through a rejected, failed or stalled renewal
 * @param backgroundCleanups operations that outlived their drain bound
 * @param slotsInUse capacity slots held right now
 * @param slotCapacity the worker's capacity
 */
public record RuntimeMetrics(long claims, long recoveries, long renewals, long fencedWrites, long ownershipLosses,
        long backgroundCleanups, int slotsInUse, int slotCapacity) {}
