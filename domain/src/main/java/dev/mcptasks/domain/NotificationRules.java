package dev.mcptasks.domain;

/**
 * The versioning rules of the notification outbox. Each row has an {@code event_version} (bumped by a new
 * fingerprint), a {@code notified_version} (last version delivered or dead-lettered; an operator's replay of a dead
 * letter moves it back by one, so that version is due again) and, while a delivery is in flight, a frozen {@code dispatch_version} + {@code dispatch_event}. The rules guarantee: an in-flight snapshot is
 * never overwritten; a newer event is delivered after it; a retry rebuilds to the newest version with a reset
 * attempt budget; dead-lettering an old version never loses a newer one.
 */
public final class NotificationRules {
    /** A version that failed this many counted attempts is dead-lettered. */
    public static final int MAX_ATTEMPTS = 5;

    private NotificationRules() {}

    /** The outbox state after a new event version was recorded on the row. */
    public static NotificationStatus afterNewEvent(NotificationStatus current) {
        return switch (current) {
            case NONE, DELIVERED, DEAD_LETTER -> NotificationStatus.PENDING;
            // in flight: the frozen snapshot stays; the newer version is picked up when this delivery ends
            case PENDING, CLAIMED, DISPATCHED, RETRY -> current;
        };
    }

    /** Whether a claim re-freezes the newest event (true) or keeps the frozen in-flight one (false). */
    public static boolean claimRebuilds(NotificationStatus current) {
        return !current.isInFlight();
    }

    /** Whether a rebuilding claim starts a fresh attempt budget (it moves to a newer version). */
    public static boolean resetsBudget(long eventVersion, long dispatchVersion) {
        return eventVersion > dispatchVersion;
    }

    /** The state after the frozen version was delivered. */
    public static NotificationStatus afterDelivered(long eventVersion, long dispatchVersion) {
        return eventVersion > dispatchVersion ? NotificationStatus.PENDING : NotificationStatus.DELIVERED;
    }

    /** The state after the frozen version was dead-lettered: a newer version stays pending. */
    public static NotificationStatus afterDeadLetter(long eventVersion, long dispatchVersion) {
        return eventVersion > dispatchVersion ? NotificationStatus.PENDING : NotificationStatus.DEAD_LETTER;
    }

    /** The idempotency key of one delivery attempt. */
    public static String idempotencyKey(TaskId id, long version, int attempt) {
        return "mcp-task:" + id.value() + ":" + version + ":" + attempt;
    }
}
