package dev.mcptasks.bench;

import java.time.Duration;

/**
 * How long a burn-down may run: until every task is finished, or {@code timeBox} ends; and once {@code probe} has
 * passed, a burn-down whose rate so far would not finish within the box stops at once (with the shipped 1 s tick a
 * burn-down of 10,000 tasks would take twenty minutes: its rate is already known after a few seconds).
 */
record Budget(Duration timeBox, Duration probe) {
    /** True while a burn-down that has finished {@code finished} of {@code tasks} after {@code elapsed} runs on. */
    boolean goOn(long finished, int tasks, long elapsedNanos) {
        if (finished >= tasks || elapsedNanos >= timeBox.toNanos()) {
            return false;
        }
        if (elapsedNanos < probe.toNanos()) {
            return true;
        }
        // at the rate so far, would the rest be done before the box ends?
        double projected = finished == 0 ? Double.POSITIVE_INFINITY : elapsedNanos * (double) tasks / finished;
        return projected <= timeBox.toNanos();
    }
}
