package dev.mcptasks.ports.repository;

/** A repository operation that could not be carried out; the message names the cause. Nothing was half-written. */
public class RepositoryException extends RuntimeException {
    public RepositoryException(String message, Throwable cause) {
        super(message, cause);
    }

    public RepositoryException(String message) {
        super(message);
    }

    /** Whether repeating the same operation later may succeed (a busy or briefly unreachable database). */
    public boolean isTransient() {
        return false;
    }
}
