package dev.mcptasks.ports.repository;

/** What {@link TaskRepository#replayDeadLetter} did. */
public enum ReplayOutcome {
    /** The dead letter is deliverable again, due now. */
    REPLAYED,
    /**
     * The row's outbox is not a dead letter (anything but {@code dead_letter}: replayed already, never dead, or a newer
     * event recorded since made it pending again); nothing changed.
     */
    NOT_DEAD,
    /** No task has that id. */
    NOT_FOUND
}
