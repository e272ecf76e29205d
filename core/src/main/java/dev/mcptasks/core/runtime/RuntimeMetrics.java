package dev.mcptasks.core.runtime;

/**
 * A snapshot of one worker's counters.
 *
 * @param claims control claims taken
 * @param recoveries claims of rows whose previous lease had expired (another worker, or this one, died or stalled)
 * @param renewals successful lease renewals (including the verification of every poll claim, of a submit or cancel
 *     claim admitted a third of the lease or more after its claim statement, and a poll's confirmation before a late
 *     request)
 * @param fencedWrites writes the store refused because the claim was gone (a normal outcome, never retried)
 * @param ownershipLosses claims lost through a rejected, failed or stalled renewal
 * @param backgroundCleanups operations that outlived their drain bound
 * @param deliveries notification deliveries claimed and handed to the sink
 * @param slotsInUse capacity slots held right now
 * @param slotCapacity the worker's capacity
 * @param commitBatches store transactions that committed more than one write together (group commit)
 * @param groupedWrites writes committed in those transactions
 * @param batchedStatements store calls that made several writes of one kind at once (inside those transactions)
 * @param batchedWrites writes made by those calls
 */
public record RuntimeMetrics(long claims, long recoveries, long renewals, long fencedWrites, long ownershipLosses,
        long backgroundCleanups, long deliveries, int slotsInUse, int slotCapacity, long commitBatches,
        long groupedWrites, long batchedStatements, long batchedWrites) {

    /** The counters before batched statements. */
    public RuntimeMetrics(long claims, long recoveries, long renewals, long fencedWrites, long ownershipLosses,
            long backgroundCleanups, long deliveries, int slotsInUse, int slotCapacity, long commitBatches,
            long groupedWrites) {
        this(claims, recoveries, renewals, fencedWrites, ownershipLosses, backgroundCleanups, deliveries, slotsInUse,
                slotCapacity, commitBatches, groupedWrites, 0, 0);
    }

    /** The counters before group commit (none grouped). */
    public RuntimeMetrics(long claims, long recoveries, long renewals, long fencedWrites, long ownershipLosses,
            long backgroundCleanups, long deliveries, int slotsInUse, int slotCapacity) {
        this(claims, recoveries, renewals, fencedWrites, ownershipLosses, backgroundCleanups, deliveries, slotsInUse,
                slotCapacity, 0, 0);
    }

    /** The control-call counters alone (no notification deliveries). */
    public RuntimeMetrics(long claims, long recoveries, long renewals, long fencedWrites, long ownershipLosses,
            long backgroundCleanups, int slotsInUse, int slotCapacity) {
        this(claims, recoveries, renewals, fencedWrites, ownershipLosses, backgroundCleanups, 0, slotsInUse,
                slotCapacity);
    }
}
