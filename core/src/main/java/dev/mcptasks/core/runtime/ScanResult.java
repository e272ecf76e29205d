package dev.mcptasks.core.runtime;

/**
 * What one scan did with its slots.
 *
 * @param reserved the slots it reserved before reading candidates (all that were free)
 * @param admitted the claims it started, each holding one of them
 */
record ScanResult(int reserved, int admitted) {
    /** A scan that found no free slot and read nothing. */
    static final ScanResult NO_SLOTS = new ScanResult(0, 0);

    ScanResult {
        if (reserved < 0 || admitted < 0 || admitted > reserved) {
            throw new IllegalArgumentException("a scan admitted " + admitted + " of " + reserved + " reserved slots");
        }
    }

    /**
     * True when the scan may have left due rows behind: it used every slot it reserved, or it had none to read
     * with. Only a scan that took fewer rows than it could has seen everything that was due.
     */
    boolean mayHaveMore() {
        return admitted == reserved;
    }
}
