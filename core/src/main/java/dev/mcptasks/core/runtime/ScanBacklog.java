package dev.mcptasks.core.runtime;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Work-conserving scans over one pool of slots. A scan that used every slot it reserved (or found none free) may
 * have left due rows behind, so it is asked for again as soon as half the pool is free, instead of waiting for the
 * tick; a scan that took fewer rows than it reserved saw everything that was due, and a failed scan backs off to
 * the tick: both end the chain. The chain never spins: every rescan needs slots freed by settled work since the
 * last scan, and every scan that keeps the chain going started as many calls as it reserved.
 *
 * <p>A scan that found no free slot because reservations held them (another scan's, or a create of this process
 * taking its claim) is asked for again as soon as any of those comes back unused, not at half the pool: nothing
 * settled meanwhile, so waiting for settled work would leave a due row to the tick while a slot is free. Each such
 * rescan needs a reservation given back since the scan, so this never spins either.
 *
 * <p>Race: a scan's operations may settle, and release their slots, before the pass records the scan. The pass
 * marks the scan first and then reads the free count; a release frees its slot first and then reads the marks.
 * Both under locks, so at least one of them sees the other and the rescan is never lost. The same holds between a
 * scan that found no slot and a reservation given back.
 */
final class ScanBacklog {
    private final CapacitySlots slots;
    private final int enough;
    private final Consumer<Set<Scan>> request;
    /** Scans that may have left due rows behind; guarded by this. */
    private final EnumSet<Scan> behind = EnumSet.noneOf(Scan.class);
    /** Of those, the scans that found no free slot at all; guarded by this. */
    private final EnumSet<Scan> starved = EnumSet.noneOf(Scan.class);

    /** @param request asks for a pass over the given scans (coalesced; returns at once) */
    ScanBacklog(CapacitySlots slots, Consumer<Set<Scan>> request) {
        this.slots = slots;
        this.enough = (slots.capacity() + 1) / 2;
        this.request = request;
    }

    /**
     * A pass is about to run {@code scan}: its mark is cleared, so releases during the scan do not ask for it again
     * (what the scan finds decides whether it continues).
     */
    synchronized void scanning(Scan scan) {
        behind.remove(scan);
        starved.remove(scan);
    }

    /** Records what {@code scan} did; asks for it again at once if it may have left rows and enough is free. */
    void scanned(Scan scan, ScanResult result) {
        if (!result.mayHaveMore()) {
            return; // scanning() cleared the mark: the chain ends here
        }
        synchronized (this) {
            behind.add(scan);
            if (result.reserved() == 0) {
                starved.add(scan);
            }
        }
        if (result.reserved() == 0) {
            reservationsReturned(); // a reservation given back before the mark was made is seen here
        }
        slotsReleased();
    }

    /**
     * Reserved slots came back unused (a scan took fewer rows than it reserved, a create of this process did not
     * take its claim): the scans that found no free slot are asked for again at once if one is free now.
     */
    void reservationsReturned() {
        Set<Scan> again;
        synchronized (this) {
            if (starved.isEmpty() || slots.free() == 0) {
                return;
            }
            again = EnumSet.copyOf(starved);
            behind.removeAll(starved);
            starved.clear();
        }
        request.accept(again);
    }

    /**
     * Slots of the pool were released (an operation settled, or a scan returned unused reservations). The marks are
     * taken when the rescan is requested, not when it runs: releases between the request and the scan must not ask
     * for yet another pass (which would continue a chain that the requested scan ends, by failing or finding less).
     */
    void slotsReleased() {
        Set<Scan> again;
        synchronized (this) {
            if (behind.isEmpty() || slots.free() < enough) {
                return;
            }
            again = EnumSet.copyOf(behind);
            behind.clear();
            starved.clear();
        }
        request.accept(again);
    }
}
