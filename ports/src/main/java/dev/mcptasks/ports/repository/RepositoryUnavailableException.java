package dev.mcptasks.ports.repository;

/** The database cannot be opened or reached (file not writable, server down); names the location, never secrets. */
public class RepositoryUnavailableException extends RepositoryException {
    public RepositoryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isTransient() {
        return true;
    }
}
