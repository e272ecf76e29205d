package dev.mcptasks.ports.repository;

/** The database was busy (SQLITE_BUSY, a serialization failure): the operation changed nothing and may be retried. */
public class TransientRepositoryException extends RepositoryException {
    public TransientRepositoryException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isTransient() {
        return true;
    }
}
