package dev.mcptasks.app.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where tasks are stored: a {@code jdbc:sqlite:} or {@code jdbc:postgresql:} url with optional credentials, and the
 * store's own tuning.
 *
 * @param url the JDBC url
 * @param user the database user, or null
 * @param password the resolved password, or null; never printed
 * @param poolSize PostgreSQL only ({@code database.poolSize}, 1..200): the most connections the store holds; by
 *     default sized from the worker's slots, at most 20 ({@link #defaultPoolSize})
 * @param synchronous SQLite only ({@code database.synchronous}): {@code FULL} (the default) makes every commit
 *     durable when it returns; {@code NORMAL} commits faster and may lose the last commits on a power failure or OS
 *     crash (never on a process crash), without corrupting the database
 */
public record DatabaseConfig(String url, String user, String password, int poolSize, Synchronous synchronous) {
    public static final String SQLITE_PREFIX = "jdbc:sqlite:";
    public static final String POSTGRES_PREFIX = "jdbc:postgresql:";
    public static final String DEFAULT_URL = "jdbc:sqlite:mcp-tasks.db";
    public static final int MIN_POOL_SIZE = 1;
    public static final int MAX_POOL_SIZE = 200;
    /** Connections beyond one per slot: see {@link #defaultPoolSize}. */
    static final int POOL_HEADROOM = 4;
    /** The largest default pool (a configured {@code poolSize} may go up to {@value #MAX_POOL_SIZE}). */
    static final int DEFAULT_POOL_CAP = 20;

    /** The two supported stores, chosen by the url prefix. */
    public enum Kind { SQLITE, POSTGRES }

    /** SQLite's {@code PRAGMA synchronous} in WAL mode. */
    public enum Synchronous { FULL, NORMAL }

    public DatabaseConfig {
        Objects.requireNonNull(url, "url");
        // the PostgreSQL driver takes no user:password@ in a url (it would read it as the host and print it in its
        // errors): credentials written there become the user and password, and the url keeps only the address
        PostgresUserInfo info = PostgresUserInfo.of(url);
        if (info != null) {
            url = info.url();
            user = user != null ? user : info.user();
            password = password != null ? password : info.password();
        }
        Objects.requireNonNull(synchronous, "synchronous");
        if (!url.startsWith(SQLITE_PREFIX) && !url.startsWith(POSTGRES_PREFIX)) {
            throw new ConfigException("database.url",
                    "database.url must start with " + SQLITE_PREFIX + " or " + POSTGRES_PREFIX);
        }
        if (poolSize < MIN_POOL_SIZE || poolSize > MAX_POOL_SIZE) {
            throw new ConfigException("database.poolSize", "database.poolSize must be between " + MIN_POOL_SIZE
                    + " and " + MAX_POOL_SIZE + ", was " + poolSize);
        }
    }

    /** A store with the default pool for the default slots and durable SQLite commits. */
    public DatabaseConfig(String url, String user, String password) {
        this(url, user, password, defaultPoolSize(RuntimeConfig.defaults().maxConcurrentControlCalls()),
                Synchronous.FULL);
    }

    public static DatabaseConfig defaults() {
        return new DatabaseConfig(DEFAULT_URL, null, null);
    }

    /**
     * The PostgreSQL pool for a worker with {@code slots} control slots: a connection per slot plus
     * {@value #POOL_HEADROOM} (the claim scan, the notify phase, the worker heartbeat, client reads), at most
     * {@value #DEFAULT_POOL_CAP}. The fenced writes and renewals of all slots go through the worker's group commit,
     * which holds one connection per committer, so slots need not each hold one; the cap keeps three workers with
     * the default slots under PostgreSQL's default {@code max_connections} of 100. (A fixed pool of 4 against 8 slots,
     * before the group commit, left 7.7 store calls waiting on average, issue 9.)
     */
    public static int defaultPoolSize(int slots) {
        return Math.min(DEFAULT_POOL_CAP, Math.max(MIN_POOL_SIZE, slots + POOL_HEADROOM));
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
                + ", poolSize=" + poolSize + ", synchronous=" + synchronous + "]";
    }

    /** The {@code user[:password]@} of a PostgreSQL url, decoded, and the url without it. */
    private record PostgresUserInfo(String url, String user, String password) {
        private static final Pattern USER_INFO = Pattern.compile("^(jdbc:postgresql://)([^/@?#]*)@(.*)$");

        static PostgresUserInfo of(String url) {
            Matcher matcher = USER_INFO.matcher(url);
            if (!matcher.matches()) {
                return null;
            }
            String info = matcher.group(2);
            int colon = info.indexOf(':');
            String user = decode(colon < 0 ? info : info.substring(0, colon));
            String password = colon < 0 ? null : decode(info.substring(colon + 1));
            return new PostgresUserInfo(matcher.group(1) + matcher.group(3), user.isEmpty() ? null : user, password);
        }

        private static String decode(String text) {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        }
    }
}
