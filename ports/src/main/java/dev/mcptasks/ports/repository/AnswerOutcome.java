package dev.mcptasks.ports.repository;

/** What {@link TaskRepository#answerInput} did with a user's answer to one input request. */
public enum AnswerOutcome {
    /** Stored as pending; the row is due now so a control claim delivers it. */
    ACCEPTED,
    /** An answer to this key is already pending; the first one stands (the new one is ignored). */
    DUPLICATE,
    /** The task is not waiting for input (any status but {@code input_required}). */
    NOT_WAITING,
    /** No task has that id. */
    NOT_FOUND
}
