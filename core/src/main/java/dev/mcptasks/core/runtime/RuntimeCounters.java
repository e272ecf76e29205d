package dev.mcptasks.core.runtime;

import java.util.concurrent.atomic.AtomicLong;

/** The live counters behind {@link RuntimeMetrics}. */
final class RuntimeCounters {
    final AtomicLong claims = new AtomicLong();
    final AtomicLong recoveries = new AtomicLong();
    final AtomicLong renewals = new AtomicLong();
    final AtomicLong fencedWrites = new AtomicLong();
    final AtomicLong ownershipLosses = new AtomicLong();
    final AtomicLong backgroundCleanups = new AtomicLong();
    final AtomicLong deliveries = new AtomicLong();
    final AtomicLong commitBatches = new AtomicLong();
    final AtomicLong groupedWrites = new AtomicLong();
    final AtomicLong batchedStatements = new AtomicLong();
    final AtomicLong batchedWrites = new AtomicLong();

    RuntimeMetrics snapshot(CapacitySlots slots) {
        return new RuntimeMetrics(claims.get(), recoveries.get(), renewals.get(), fencedWrites.get(),
                ownershipLosses.get(), backgroundCleanups.get(), deliveries.get(), slots.inUse(), slots.capacity(),
                commitBatches.get(), groupedWrites.get(), batchedStatements.get(), batchedWrites.get());
    }
}
