package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.SQLException;

/** The database of one chaos run: what goes into each process's configuration, and a connection for the harness. */
public interface ChaosStore extends AutoCloseable {
    /** {@code sqlite} or {@code postgres}. */
    String name();

    boolean postgres();

    /**
     * The {@code database} section for one process. On PostgreSQL the connection's {@code ApplicationName} is
     * {@code clientName}, so the audit trigger can name the writer of every accepted update.
     */
    ObjectNode databaseConfig(String clientName);

    /** A plain JDBC connection for installing the audit and reading the store. */
    Connection connect() throws SQLException;

    /** Where the store is, for the summary. */
    String describe();

    @Override
    void close();
}
