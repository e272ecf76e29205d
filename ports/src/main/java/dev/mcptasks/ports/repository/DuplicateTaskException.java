package dev.mcptasks.ports.repository;

/**
 * A uniqueness violation: a task id already used, or a remote task id already recorded for the same server. Other
 * integrity errors are never reported as this exception.
 */
public class DuplicateTaskException extends RepositoryException {
    public DuplicateTaskException(String message, Throwable cause) {
        super(message, cause);
    }
}
