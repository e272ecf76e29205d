package dev.mcptasks.bench;

/**
 * Counts the work a database engine does on one database from the meter's opening until {@link #read}: transactions,
 * statements, rows and WAL, as far as the engine (or its driver) can tell from outside the product's store. The
 * bench's own monitor (its polls, on the thread that opened the meter or on {@link BenchDatabase#monitor}) is not
 * counted, or subtracted where the engine cannot tell it apart.
 */
interface WorkMeter extends AutoCloseable {
    /**
     * The counts since the meter opened; call once, after the schedulers have stopped.
     *
     * @param monitorTransactions transactions the bench's monitor made meanwhile (one per poll)
     */
    WorkCounts read(long monitorTransactions);

    @Override
    void close();
}
