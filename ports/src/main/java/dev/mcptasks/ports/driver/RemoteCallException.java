package dev.mcptasks.ports.driver;

import java.util.Objects;

/** A remote call that failed, with its classification. */
public class RemoteCallException extends RuntimeException {
    private final RemoteFailure failure;

    public RemoteCallException(RemoteFailure failure, String message) {
        this(failure, message, null);
    }

    public RemoteCallException(RemoteFailure failure, String message, Throwable cause) {
        super(message, cause);
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    public RemoteFailure failure() {
        return failure;
    }
}
