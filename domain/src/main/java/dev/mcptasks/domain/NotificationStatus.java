package dev.mcptasks.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The state of a row's notification outbox. */
public enum NotificationStatus {
    NONE,
    PENDING,
    CLAIMED,
    DISPATCHED,
    RETRY,
    DELIVERED,
    DEAD_LETTER;

    /** States a notify claim may pick up (when a newer version is waiting and the row is due). */
    public static final Set<NotificationStatus> CLAIMABLE = Set.copyOf(EnumSet.of(PENDING, CLAIMED, DISPATCHED, RETRY));

    /** A frozen delivery is in flight: its snapshot must not be rebuilt. */
    public boolean isInFlight() {
        return this == CLAIMED || this == DISPATCHED;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static NotificationStatus fromWire(String value) {
        for (NotificationStatus status : values()) {
            if (status.wireName().equals(value)) {
                return status;
            }
        }
        throw new DomainException("unknown notification status '" + value + "'");
    }
}
