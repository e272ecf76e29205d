package dev.mcptasks.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The status of a task; terminal statuses never change again. */
public enum TaskStatus {
    /** Persisted, not yet created remotely. */
    PENDING,
    WORKING,
    INPUT_REQUIRED,
    COMPLETED,
    FAILED,
    CANCELLED;

    public static final Set<TaskStatus> TERMINAL = Set.copyOf(EnumSet.of(COMPLETED, FAILED, CANCELLED));
    /** Statuses a poll claim may pick up. */
    public static final Set<TaskStatus> POLLABLE = Set.copyOf(EnumSet.of(WORKING, INPUT_REQUIRED));
    /** Statuses that deserve a notification. */
    public static final Set<TaskStatus> ATTENTION = Set.copyOf(EnumSet.of(INPUT_REQUIRED, COMPLETED, FAILED, CANCELLED));

    public boolean isTerminal() {
        return TERMINAL.contains(this);
    }

    public boolean isPollable() {
        return POLLABLE.contains(this);
    }

    public boolean needsAttention() {
        return ATTENTION.contains(this);
    }

    /** The name used on the wire, in the database and on the command line. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TaskStatus fromWire(String value) {
        if (value != null) {
            for (TaskStatus status : values()) {
                if (status.wireName().equals(value)) {
                    return status;
                }
            }
        }
        throw new DomainException("unknown task status '" + value + "'; expected one of pending, working,"
                + " input_required, completed, failed, cancelled");
    }
}
