package dev.mcptasks.domain;

/** A value that breaks a rule of the model; the message names the offending field and why. */
public class DomainException extends IllegalArgumentException {
    public DomainException(String message) {
        super(message);
    }

    public DomainException(String message, Throwable cause) {
        super(message, cause);
    }
}
