package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * PostgreSQL for a chaos run: the server named by {@code MCP_TASKS_TEST_PG_URL} (a fresh database on it, dropped at
 * the end), else an embedded zonky server started here and stopped at the end. Its port reaches the serve processes
 * through their configuration.
 */
final class PostgresStore implements ChaosStore {
    static final String EXTERNAL_URL_ENV = "MCP_TASKS_TEST_PG_URL";

    private final EmbeddedPostgres embedded;
    private final String host;
    private final int port;
    private final String database;
    private final String user;
    private final String password;
    private final String adminUrl;

    private PostgresStore(EmbeddedPostgres embedded, String host, int port, String database, String user,
            String password, String adminUrl) {
        this.embedded = embedded;
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
        this.adminUrl = adminUrl;
    }

    static PostgresStore start() {
        String external = System.getenv(EXTERNAL_URL_ENV);
        if (external != null && !external.isBlank()) {
            return external(external);
        }
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("max_connections", "200")
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .start();
            return new PostgresStore(postgres, "localhost", postgres.getPort(), "postgres", "postgres", null, null);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("embedded PostgreSQL did not start (as root it needs 'unshare -U'); set "
                    + EXTERNAL_URL_ENV + " to use another server: " + e, e);
        }
    }

    private static PostgresStore external(String url) {
        Properties parsed = Driver.parseURL(url, new Properties());
        if (parsed == null) {
            throw new IllegalStateException(EXTERNAL_URL_ENV + " is not a jdbc:postgresql:// url");
        }
        String host = parsed.getProperty("PGHOST", "localhost").split(",")[0];
        int port = Integer.parseInt(parsed.getProperty("PGPORT", "5432").split(",")[0]);
        String name = "mcp_tasks_chaos_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100_000;
        PostgresStore store = new PostgresStore(null, host, port, name, parsed.getProperty("user"),
                parsed.getProperty("password"), url);
        store.admin("CREATE DATABASE " + name);
        return store;
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public boolean postgres() {
        return true;
    }

    @Override
    public ObjectNode databaseConfig(String clientName) {
        ObjectNode section = new ObjectMapper().createObjectNode().put("url", url(clientName));
        if (user != null) {
            section.put("user", user);
        }
        if (password != null) {
            section.put("password", password);
        }
        return section;
    }

    @Override
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url("chaos-harness"), credentials());
    }

    @Override
    public String describe() {
        return (embedded != null ? "embedded " : "") + "PostgreSQL " + host + ":" + port + "/" + database;
    }

    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                System.err.println("chaos: embedded PostgreSQL did not stop cleanly: " + e);
            }
        } else {
            admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    private String url(String applicationName) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database + "?ApplicationName=" + applicationName;
    }

    private Properties credentials() {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        return properties;
    }

    private void admin(String sql) {
        try (Connection connection = DriverManager.getConnection(adminUrl, credentials());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + host + ":" + port + ": " + sql + " failed: "
                    + e.getMessage(), e);
        }
    }
}
