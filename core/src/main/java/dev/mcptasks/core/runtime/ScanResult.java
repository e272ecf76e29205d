package dev.mcptasks.core.runtime;

/**
 * What one scan did with its slots.
 *
 * @param reserved the slots it reserved before reading candidates (all that were free)
 * @param admitted the claims it started, each holding one of them
 * @param heldBack the claims it gave back at once because their principal reached its share within the scan
 *     ({@link PrincipalShares}): rows of other principals may be due behind them
 */
record ScanResult(int reserved, int admitted, int heldBack) {
    /** A scan that found no free slot and read nothing. */
    static final ScanResult NO_SLOTS = new ScanResult(0, 0);

    ScanResult {
        if (reserved < 0 || admitted < 0 || heldBack < 0 || admitted + heldBack > reserved) {
            throw new IllegalArgumentException("a scan admitted " + admitted + " and held back " + heldBack + " of "
                    + reserved + " reserved slots");
        }
    }

    ScanResult(int reserved, int admitted) {
        this(reserved, admitted, 0);
    }

    /**
     * True when the scan may have left due rows behind: it used every slot it reserved, or it had none to read
     * with. Only a scan that took fewer rows than it could has seen everything that was due.
     */
    boolean mayHaveMore() {
        return admitted + heldBack == reserved;
    }
}
