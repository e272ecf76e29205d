package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** Maps driver and pool failures to the repository's typed exceptions by SQLSTATE and constraint name. */
final class SqlErrors {
    /** The unique constraints whose violation means a duplicate task (see the V1 migration). */
    static final String TASK_ID_CONSTRAINT = "tasks_pkey";
    static final String REMOTE_ID_CONSTRAINT = "tasks_server_remote_task_key";

    /** Serialization failure, deadlock, lock not available, statement cancelled: retrying may succeed. */
    private static final Set<String> TRANSIENT_STATES = Set.of("40001", "40P01", "55P03", "57014");
    /** Server shutting down or refusing connections. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300");

    private SqlErrors() {}

    /** The typed exception for {@code failure} during {@code operation} on the database at {@code location}. */
    static RepositoryException translate(String operation, Throwable failure, String location) {
        if (failure instanceof RepositoryException repositoryException) {
            return repositoryException;
        }
        SQLException sql = findSqlException(failure);
        if (sql == null) {
            return new RepositoryException(operation + " failed on PostgreSQL at " + location + ": " + failure,
                    failure);
        }
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        String detail = operation + " failed on PostgreSQL at " + location + " (SQLSTATE " + state + "): "
                + sql.getMessage();
        if (state.equals("23505")) {
            String constraint = constraintName(sql);
            if (TASK_ID_CONSTRAINT.equals(constraint) || REMOTE_ID_CONSTRAINT.equals(constraint)) {
                return new DuplicateTaskException(detail, sql);
            }
            return new RepositoryException(detail, sql);
        }
        if (TRANSIENT_STATES.contains(state)) {
            return new TransientRepositoryException(detail, sql);
        }
        if (state.startsWith("08") || UNAVAILABLE_STATES.contains(state)
                || sql instanceof SQLTransientConnectionException) {
            return new RepositoryUnavailableException("PostgreSQL at " + location + " is unreachable: " + operation
                    + " failed: " + sql.getMessage(), sql);
        }
        return new RepositoryException(detail, sql);
    }

    private static SQLException findSqlException(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    private static String constraintName(SQLException sql) {
        if (sql instanceof PSQLException psql) {
            ServerErrorMessage message = psql.getServerErrorMessage();
            return message == null ? null : message.getConstraint();
        }
        return null;
    }
}
