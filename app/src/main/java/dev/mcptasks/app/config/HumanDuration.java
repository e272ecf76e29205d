package dev.mcptasks.app.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as operators write them: a positive whole number and a unit, {@code 30m}, {@code 12h}, {@code 7d}. */
public final class HumanDuration {
    private static final Pattern FORMAT = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d|w)");

    private HumanDuration() {}

    /**
     * @throws IllegalArgumentException naming the text and the accepted form when {@code text} is not one
     */
    public static Duration parse(String text) {
        Matcher matcher = FORMAT.matcher(text == null ? "" : text.strip());
        if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write a positive whole number and"
                    + " a unit (ms, s, m, h, d, w), e.g. 30m, 12h, 7d");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            case "w" -> Duration.ofDays(7 * amount);
            default -> throw new AssertionError(matcher.group(2));
        };
    }

    /** The shortest exact form of {@code duration} in the units {@link #parse} reads. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        long[] sizes = {7L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000};
        String[] units = {"w", "d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (millis % sizes[i] == 0) {
                return millis / sizes[i] + units[i];
            }
        }
        return millis + "ms";
    }
}
