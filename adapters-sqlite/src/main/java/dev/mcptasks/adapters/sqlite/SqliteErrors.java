package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import java.sql.SQLTransientConnectionException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Maps SQLite, pool and MyBatis failures to the repository's typed exceptions. */
final class SqliteErrors {
    private SqliteErrors() {}

    /**
     * Busy or locked: transient; a uniqueness violation (task id, or remote id per server): duplicate; the file
     * unreadable or gone: unavailable; anything else, other integrity violations included: a plain failure.
     */
    static RepositoryException translate(String operation, String path, Throwable failure) {
        if (failure instanceof RepositoryException repositoryException) {
            return repositoryException;
        }
        SQLiteException sqlite = find(failure, SQLiteException.class);
        if (sqlite != null) {
            SQLiteErrorCode code = sqlite.getResultCode();
            String what = operation + " on SQLite database '" + path + "' failed: " + sqlite.getMessage();
            switch (primary(code)) {
                case SQLITE_BUSY, SQLITE_LOCKED:
                    return new TransientRepositoryException(operation + ": SQLite database '" + path
                            + "' is busy: " + sqlite.getMessage(), failure);
                case SQLITE_CONSTRAINT:
                    if (code == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                            || code == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY) {
                        return new DuplicateTaskException(duplicateMessage(operation, sqlite.getMessage()), failure);
                    }
                    return new RepositoryException(what, failure);
                case SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_READONLY, SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FULL,
                        SQLITE_PERM:
                    return new RepositoryUnavailableException(what, failure);
                default:
                    return new RepositoryException(what, failure);
            }
        }
        if (find(failure, SQLTransientConnectionException.class) != null) {
            return new TransientRepositoryException(operation + ": no connection to SQLite database '" + path
                    + "' became free in time", failure);
        }
        return new RepositoryException(operation + " on SQLite database '" + path + "' failed: "
                + rootMessage(failure), failure);
    }

    /** The message of the innermost cause, for wrapping errors in a sentence. */
    static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static String duplicateMessage(String operation, String message) {
        if (message.contains("tasks.remote_task_id")) {
            return operation + ": the server already has a task with that remote task id (" + message + ")";
        }
        return operation + ": a task with this id already exists (" + message + ")";
    }

    /** The primary result code: the low byte of an extended code. */
    private static SQLiteErrorCode primary(SQLiteErrorCode code) {
        return SQLiteErrorCode.getErrorCode(code.code & 0xFF);
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
