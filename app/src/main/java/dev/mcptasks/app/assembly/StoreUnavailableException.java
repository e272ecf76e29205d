package dev.mcptasks.app.assembly;

import dev.mcptasks.app.config.DatabaseConfig;
import dev.mcptasks.core.secret.KnownSecrets;
import dev.mcptasks.ports.repository.RepositoryException;

/**
 * The configured store could not be opened (bad path, unreadable file, server down or refusing, a schema this build
 * cannot use). Its message is the one line an operator sees: the store's url without credentials or query, and the
 * cause, with the configured password blanked out should a driver ever echo it.
 */
public final class StoreUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreUnavailableException(DatabaseConfig database, RepositoryException failure) {
        super("cannot open the store " + database.redactedUrl() + ": " + cause(database, failure), failure);
    }

    private static String cause(DatabaseConfig database, RepositoryException failure) {
        // the innermost cause says what went wrong (refused, no such directory); without one the adapter's own
        // message does (a newer schema)
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        // a password too short to be told from ordinary text (below the registry's minimum) is not searched for:
        // masking every "x" would garble the message, and such a password protects nothing
        if (database.password() != null && database.password().length() >= KnownSecrets.MIN_LENGTH) {
            message = message.replace(database.password(), "***");
        }
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
