package dev.mcptasks.ports.driver;

/**
 * One {@code notifications/progress} of a direct call.
 *
 * @param progress how far the call is (increases with each notification; unit unknown)
 * @param total the total, or null when the server does not know it
 * @param message the server's human-readable message, or null
 */
public record CallProgress(double progress, Double total, String message) {

    /** The text to show as the task's status message: the server's message, else {@code progress/total}. */
    public String statusMessage() {
        if (message != null && !message.isBlank()) {
            return message;
        }
        return total == null ? "progress " + number(progress) : "progress " + number(progress) + "/" + number(total);
    }

    private static String number(double value) {
        return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value)
                : Double.toString(value);
    }
}
