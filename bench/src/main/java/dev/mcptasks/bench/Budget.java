package dev.mcptasks.bench;

import java.time.Duration;

/**
 * How long a burn-down may run: until every task is finished, or {@code timeBox} ends; and once {@code probe} has
 * passed, a burn-down whose rate so far would not finish within the box stops at once (with the shipped 1 s tick a
 * burn-down of 10,000 tasks would take twenty minutes: its rate is already known after a few seconds). Past the
 * probe, a burn-down that finished nothing for {@link #STALL} stops too (a few executions db-scheduler failed to
 * complete on SQLite stay picked until its dead-execution detection, minutes later).
 */
record Budget(Duration timeBox, Duration probe) {
    static final Duration STALL = Duration.ofSeconds(5);

    /** {@link #goOn(long, int, long, long)} for a burn-down that is still progressing. */
    boolean goOn(long finished, int tasks, long elapsedNanos) {
        return goOn(finished, tasks, elapsedNanos, 0);
    }

    /**
     * True while a burn-down that has finished {@code finished} of {@code tasks} after {@code elapsed}, the last of
     * them {@code sinceProgressNanos} ago, runs on.
     */
    boolean goOn(long finished, int tasks, long elapsedNanos, long sinceProgressNanos) {
        if (finished >= tasks || elapsedNanos >= timeBox.toNanos()) {
            return false;
        }
        if (elapsedNanos < probe.toNanos()) {
            return true;
        }
        if (sinceProgressNanos >= STALL.toNanos()) {
            return false;
        }
        // at the rate so far, would the rest be done before the box ends?
        double projected = finished == 0 ? Double.POSITIVE_INFINITY : elapsedNanos * (double) tasks / finished;
        return projected <= timeBox.toNanos();
    }
}
