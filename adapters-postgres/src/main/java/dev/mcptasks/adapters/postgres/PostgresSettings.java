package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.repository.RepositoryException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to reach PostgreSQL. The password never appears in {@link #toString()} nor in any message.
 *
 * @param jdbcUrl {@code jdbc:postgresql://host[:port]/database[?params]}
 * @param user the login role
 * @param password the password, or null for trust/peer authentication or a password given in the url
 * @param poolSize the most pooled connections this repository holds (a group commit holds one for its whole work);
 *     while anyone subscribes to work arrival, one more, outside the pool, listens for notifications
 * @param connectTimeout how long opening a connection may take before the server counts as unreachable
 */
public record PostgresSettings(String jdbcUrl, String user, String password, int poolSize, Duration connectTimeout) {

    private static final String PREFIX = "jdbc:postgresql://";

    public PostgresSettings {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (!jdbcUrl.startsWith(PREFIX)) {
            throw new RepositoryException("a PostgreSQL url must start with " + PREFIX + ", was "
                    + redactQuery(jdbcUrl));
        }
        if (poolSize < 1) {
            throw new RepositoryException("pool size must be at least 1, was " + poolSize);
        }
        if (connectTimeout.toMillis() < 250) {
            throw new RepositoryException("connect timeout must be at least 250 ms, was " + connectTimeout.toMillis()
                    + " ms");
        }
    }

    /** Settings with a pool of 4 and a 5 s connect timeout. */
    public static PostgresSettings of(String jdbcUrl, String user, String password) {
        return new PostgresSettings(jdbcUrl, user, password, 4, Duration.ofSeconds(5));
    }

    /** {@code host:port/database}, for messages: no credentials, no query parameters. */
    public String location() {
        String rest = redactQuery(jdbcUrl).substring(PREFIX.length());
        try {
            URI uri = URI.create("postgresql://" + rest);
            String host = uri.getHost() == null ? "localhost" : uri.getHost();
            int port = uri.getPort() < 0 ? 5432 : uri.getPort();
            String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
            return host + ":" + port + path;
        } catch (IllegalArgumentException e) {
            return rest;
        }
    }

    @Override
    public String toString() {
        return "PostgresSettings[location=" + location() + ", user=" + user + ", password="
                + (password == null ? "none" : "***") + ", poolSize=" + poolSize + ", connectTimeout="
                + connectTimeout + "]";
    }

    private static String redactQuery(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }
}
