package dev.mcptasks.app.config;

import java.util.Objects;

/**
 * Where tasks are stored: a {@code jdbc:sqlite:} or {@code jdbc:postgresql:} url with optional credentials.
 *
 * @param url the JDBC url
 * @param user the database user, or null
 * @param password the resolved password, or null; never printed
 */
public record DatabaseConfig(String url, String user, String password) {
    public static final String SQLITE_PREFIX = "jdbc:sqlite:";
    public static final String POSTGRES_PREFIX = "jdbc:postgresql:";
    public static final String DEFAULT_URL = "jdbc:sqlite:mcp-tasks.db";

    /** The two supported stores, chosen by the url prefix. */
    public enum Kind { SQLITE, POSTGRES }

    public DatabaseConfig {
        Objects.requireNonNull(url, "url");
        if (!url.startsWith(SQLITE_PREFIX) && !url.startsWith(POSTGRES_PREFIX)) {
            throw new ConfigException("database.url",
                    "database.url must start with " + SQLITE_PREFIX + " or " + POSTGRES_PREFIX);
        }
    }

    public static DatabaseConfig defaults() {
        return new DatabaseConfig(DEFAULT_URL, null, null);
    }

    public Kind kind() {
        return url.startsWith(SQLITE_PREFIX) ? Kind.SQLITE : Kind.POSTGRES;
    }

    /** The url for messages: without query parameters (which may carry a password) or credentials before a host. */
    public String redactedUrl() {
        int query = url.indexOf('?');
        String shown = query < 0 ? url : url.substring(0, query);
        int hostStart = shown.indexOf("//");
        int at = shown.indexOf('@', hostStart + 2);
        if (hostStart >= 0 && at > hostStart) {
            shown = shown.substring(0, hostStart + 2) + shown.substring(at + 1);
        }
        return shown;
    }

    @Override
    public String toString() {
        return "DatabaseConfig[url=" + redactedUrl() + ", user=" + user + ", password=" + (password == null ? "none" : "***")
                + "]";
    }
}
