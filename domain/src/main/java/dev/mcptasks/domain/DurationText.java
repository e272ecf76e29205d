package dev.mcptasks.domain;

import java.time.Duration;

/**
 * A duration as people write it in messages and logs ({@code 250 ms}, {@code 30 s}, {@code 5 min}, {@code 2 h 5 min}),
 * never ISO-8601's {@code PT30S}. Exact where it matters: a whole number of seconds stays in seconds below two
 * minutes, and a part that does not divide evenly keeps the finer unit.
 */
public final class DurationText {
    private DurationText() {}

    public static String of(Duration duration) {
        if (duration.isNegative()) {
            return "-" + of(duration.negated());
        }
        long millis = duration.toMillis();
        if (millis % 1000 != 0 || millis == 0) {
            return millis + " ms";
        }
        long seconds = millis / 1000;
        if (seconds < 120 || seconds % 60 != 0) {
            return seconds + " s";
        }
        long minutes = seconds / 60;
        if (minutes < 120) {
            return minutes + " min";
        }
        long hours = minutes / 60;
        long rest = minutes % 60;
        return hours + " h" + (rest == 0 ? "" : " " + rest + " min");
    }
}
