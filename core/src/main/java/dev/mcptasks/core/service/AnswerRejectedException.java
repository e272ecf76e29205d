package dev.mcptasks.core.service;

import dev.mcptasks.domain.DomainException;
import java.util.Objects;

/** A user's answer to an input request that cannot be stored; the message says why, naming the task. */
public final class AnswerRejectedException extends DomainException {
    /** Why an answer was rejected. */
    public enum Reason {
        /** The task is not {@code input_required}. */
        NOT_WAITING,
        /** The task's protocol generation cannot take answers from mcp-tasks (2025-11-25). */
        GENERATION_CANNOT_ANSWER,
        /** The key is not one of the task's pending input requests. */
        UNKNOWN_KEY,
        /** The answer is not a JSON object (the bare result of the request). */
        INVALID_RESPONSE
    }

    private final Reason reason;

    AnswerRejectedException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }

    /** Whether the caller's input is at fault (key or answer), rather than the task's state. */
    public boolean isBadInput() {
        return reason == Reason.UNKNOWN_KEY || reason == Reason.INVALID_RESPONSE;
    }
}
