package dev.mcptasks.ports.repository;

/** What a user's cancel request did. */
public enum CancelRequestOutcome {
    /** First request: persisted; the serving worker will send the remote cancel. */
    REQUESTED,
    /** A repeat: nothing changed. */
    ALREADY_REQUESTED,
    /** The task was pending and never sent: cancelled locally, no remote call. */
    CANCELLED_LOCALLY,
    /** The task had already ended: nothing changed. */
    ALREADY_TERMINAL,
    NOT_FOUND
}
