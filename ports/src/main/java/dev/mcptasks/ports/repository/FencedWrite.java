package dev.mcptasks.ports.repository;

/** The fenced (claim-conditional) writes of {@link TaskRepository}, named for {@link FencedWriteHook}. */
public enum FencedWrite {
    RENEW,
    RECORD_SUBMIT_ATTEMPT,
    RECORD_PROGRESS,
    APPLY_SUBMITTED,
    APPLY_OUTCOME,
    RELEASE_FAILURE,
    RELEASE_CANCELLED,
    ABANDON_CANCEL,
    RELEASE_TO_ENDPOINT,
    NOTIFY_DISPATCH,
    NOTIFY_FINISH,
    NOTIFY_RETRY,
    NOTIFY_DEAD_LETTER,
    NOTIFY_RELEASE
}
