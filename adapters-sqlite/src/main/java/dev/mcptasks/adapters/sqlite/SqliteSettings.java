package dev.mcptasks.adapters.sqlite;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the SQLite database lives and how it is reached.
 *
 * @param jdbcUrl {@code jdbc:sqlite:PATH} of a database file (in-memory databases are refused: the writer and reader
 *     pools would each see a different database)
 * @param busyTimeout how long a statement waits for another connection's lock before failing as busy
 * @param readerPoolSize connections of the read-only pool
 * @param synchronous SQLite's {@code synchronous} setting for every connection: {@link Synchronous#FULL} (the
 *     default) makes each commit durable when it returns; {@link Synchronous#NORMAL} in WAL mode may lose the last
 *     commits on a power failure or OS crash (never on a process crash) and never corrupts the database
 */
public record SqliteSettings(String jdbcUrl, Duration busyTimeout, int readerPoolSize, Synchronous synchronous) {
    public static final String URL_PREFIX = "jdbc:sqlite:";
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);
    public static final int DEFAULT_READER_POOL_SIZE = 4;

    /** The durability of a commit: SQLite's {@code PRAGMA synchronous}, in WAL mode. */
    public enum Synchronous {
        /** The WAL is synced at every commit: a commit that returned survives a power failure. */
        FULL,
        /** The WAL is synced at checkpoints only: faster commits; the last ones may be lost on a power failure. */
        NORMAL
    }

    public SqliteSettings {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(synchronous, "synchronous");
        Objects.requireNonNull(busyTimeout, "busyTimeout");
        if (!jdbcUrl.startsWith(URL_PREFIX) || pathOf(jdbcUrl).isBlank()) {
            throw new IllegalArgumentException("SQLite url must be " + URL_PREFIX + "PATH, was '" + jdbcUrl + "'");
        }
        if (jdbcUrl.contains(":memory:") || jdbcUrl.contains("mode=memory")) {
            throw new IllegalArgumentException("SQLite url must name a database file, not an in-memory database: '"
                    + jdbcUrl + "'");
        }
        if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("SQLite busy timeout must be between 0 and " + Integer.MAX_VALUE
                    + " ms, was " + busyTimeout);
        }
        if (readerPoolSize < 1 || readerPoolSize > 64) {
            throw new IllegalArgumentException("SQLite reader pool size must be between 1 and 64, was "
                    + readerPoolSize);
        }
    }

    /** Settings with the durable default, {@link Synchronous#FULL}. */
    public SqliteSettings(String jdbcUrl, Duration busyTimeout, int readerPoolSize) {
        this(jdbcUrl, busyTimeout, readerPoolSize, Synchronous.FULL);
    }

    /** Settings for a database file with the default busy timeout and reader pool size. */
    public static SqliteSettings forFile(Path file) {
        return new SqliteSettings(URL_PREFIX + file, DEFAULT_BUSY_TIMEOUT, DEFAULT_READER_POOL_SIZE);
    }

    /** The database file path named by the url (without any query parameters). */
    public String path() {
        return pathOf(jdbcUrl);
    }

    private static String pathOf(String url) {
        String rest = url.startsWith(URL_PREFIX) ? url.substring(URL_PREFIX.length()) : url;
        int query = rest.indexOf('?');
        return query < 0 ? rest : rest.substring(0, query);
    }
}
