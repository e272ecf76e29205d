package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** One SQLite file shared by every serve process of the run. */
final class SqliteStore implements ChaosStore {
    private final Path file;

    SqliteStore(Path file) {
        this.file = file;
    }

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public boolean postgres() {
        return false;
    }

    @Override
    public ObjectNode databaseConfig(String clientName) {
        return new ObjectMapper().createObjectNode().put("url", "jdbc:sqlite:" + file);
    }

    @Override
    public Connection connect() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 30000");
        }
        return connection;
    }

    @Override
    public String describe() {
        return "SQLite " + file;
    }

    @Override
    public void close() {
        // the file stays for inspection
    }
}
