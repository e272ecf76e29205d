package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.repository.WorkSubscription;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.postgresql.Driver;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work-arrival signals over {@code LISTEN/NOTIFY}. Creates, cancel requests and stored answers send a notification
 * on {@value #CHANNEL} in their own transaction (payload: the schema of the tasks table, so stores sharing a
 * database in different schemas do not wake each other); PostgreSQL delivers it at commit to every listening
 * session, this process's included.
 *
 * <p>One daemon thread per store, started by the first subscription and stopped when the last one closes, holds a
 * dedicated connection outside the pool (a pooled one would be handed to other work between reads, and LISTEN is a
 * session state). It waits for notifications, calls every subscriber once per batch, and on a lost connection
 * reconnects with bounded backoff and then calls every subscriber once: notifications sent while it was away are
 * gone, so a worker must look.
 *
 * <p>The same listener on {@value #CHANGES} tells readers of other processes' changes (V12's trigger: a gateway
 * principal's row changed its status, message or input request), so a gateway whose calls a separate worker drives
 * answers from that worker's commit, not from its next poll.
 */
final class WorkArrivalListener implements AutoCloseable {
    static final String CHANNEL = "mcp_tasks_work";
    /** The channel of other processes' changes to rows readers wait on. */
    static final String CHANGES = "mcp_tasks_changes";
    /** What the listener's backend shows in {@code pg_stat_activity.application_name}. */
    static final String APPLICATION_NAME = "mcp-tasks-listener";

    private static final Logger LOG = LoggerFactory.getLogger(WorkArrivalListener.class);
    /** How long one wait for notifications blocks: also how soon a stopped loop notices it. */
    private static final int WAIT_MILLIS = 250;
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    /** Opens the dedicated connection. */
    @FunctionalInterface
    interface ConnectionOpener {
        Connection open() throws SQLException;
    }

    private final ConnectionOpener opener;
    private final String channel;
    private final String ownOrigin; // may be null: every notification of the schema counts
    private final String location;
    private final Duration startWait;
    private final List<Runnable> subscribers = new CopyOnWriteArrayList<>();
    private Loop loop; // guarded by this

    /** A listener on the server and database of {@code settings}, as the same user, with their connect timeout. */
    static WorkArrivalListener of(PostgresSettings settings) {
        return of(settings, CHANNEL);
    }

    /** A listener on {@code channel} ({@value #CHANNEL} or {@value #CHANGES}). */
    static WorkArrivalListener of(PostgresSettings settings, String channel) {
        return of(settings, channel, null);
    }

    /**
     * A listener on {@code channel} that leaves out the notifications of transactions of {@code ownOrigin} (the
     * origin of this process's store, see {@link PostgresStore#open(PostgresSettings, String)}), or none when null.
     */
    static WorkArrivalListener of(PostgresSettings settings, String channel, String ownOrigin) {
        Properties properties = new Properties();
        if (settings.user() != null) {
            properties.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        long timeoutMs = settings.connectTimeout().toMillis();
        properties.setProperty("connectTimeout", Long.toString(Math.max(1, (timeoutMs + 999) / 1000)));
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("tcpKeepAlive", "true");
        Driver driver = new Driver();
        String url = settings.jdbcUrl();
        return new WorkArrivalListener(() -> {
            Connection connection = driver.connect(url, properties);
            if (connection == null) {
                throw new SQLException("the PostgreSQL driver does not accept the url");
            }
            return connection;
        }, settings.location(), settings.connectTimeout(), channel, ownOrigin);
    }

    WorkArrivalListener(ConnectionOpener opener, String location, Duration startWait) {
        this(opener, location, startWait, CHANNEL, null);
    }

    WorkArrivalListener(ConnectionOpener opener, String location, Duration startWait, String channel,
            String ownOrigin) {
        this.channel = channel;
        this.ownOrigin = ownOrigin;
        this.opener = opener;
        this.location = location;
        this.startWait = startWait;
    }

    /**
     * Adds {@code listener}; the first subscription starts the loop and waits (at most the connect timeout) until
     * it listens, so a write committed after this returns is never missed. When the wait runs out, the loop signals
     * once it does listen.
     */
    WorkSubscription subscribe(Runnable listener) {
        Runnable subscriber = new Subscriber(listener);
        Loop current;
        synchronized (this) {
            subscribers.add(subscriber);
            if (loop == null) {
                loop = new Loop();
                loop.start();
            }
            current = loop;
        }
        current.awaitListening(startWait);
        return () -> unsubscribe(subscriber);
    }

    private void unsubscribe(Runnable subscriber) {
        Loop stopping = null;
        synchronized (this) {
            if (subscribers.remove(subscriber) && subscribers.isEmpty() && loop != null) {
                stopping = loop;
                loop = null;
            }
        }
        if (stopping != null) {
            stopping.stop();
        }
    }

    /** Stops the loop and waits (briefly) for its connection to close. */
    @Override
    public void close() {
        Loop stopping;
        synchronized (this) {
            subscribers.clear();
            stopping = loop;
            loop = null;
        }
        if (stopping != null) {
            stopping.stop();
            stopping.join(Duration.ofMillis(4L * WAIT_MILLIS));
        }
    }

    private void signal() {
        for (Runnable subscriber : subscribers) {
            subscriber.run();
        }
    }

    /**
     * Whether a notification with {@code payload} is news for a listener on {@code schema}: the payload is the
     * sender's schema, followed on {@value #CHANGES} by "/" and the sending store's origin (V14); a change of the
     * listener's own store ({@code ownOrigin}) is not news, its store announced it at commit.
     */
    static boolean tells(String payload, String schema, String ownOrigin) {
        if (payload == null) {
            return false;
        }
        if (payload.equals(schema)) {
            return true;
        }
        if (!payload.startsWith(schema) || payload.length() <= schema.length()
                || payload.charAt(schema.length()) != '/') {
            return false;
        }
        String origin = payload.substring(schema.length() + 1);
        return ownOrigin == null || !ownOrigin.equals(origin);
    }

    /** A subscription's identity (the same listener may subscribe twice) and its guard against a throwing listener. */
    private static final class Subscriber implements Runnable {
        private final Runnable listener;

        Subscriber(Runnable listener) {
            this.listener = listener;
        }

        @Override
        public void run() {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("a work-arrival listener threw (it must not): {}", e.toString());
            }
        }
    }

    private enum Start { WAITING, LISTENING, GAVE_UP }

    /** One listening thread and its connection; stopped for good once stopped. */
    private final class Loop implements Runnable {
        private final Thread thread = new Thread(this, "mcp-tasks-pg-listener");
        private final CountDownLatch listening = new CountDownLatch(1);
        /** Whether the first subscriber saw the first LISTEN in time; if not, that LISTEN must signal. */
        private final AtomicReference<Start> start = new AtomicReference<>(Start.WAITING);
        private final Object sleep = new Object();
        private volatile boolean stopped;

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void awaitListening(Duration timeout) {
            try {
                if (!listening.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    start.compareAndSet(Start.WAITING, Start.GAVE_UP);
                }
            } catch (InterruptedException e) {
                start.compareAndSet(Start.WAITING, Start.GAVE_UP);
                Thread.currentThread().interrupt();
            }
        }

        void stop() {
            stopped = true;
            synchronized (sleep) {
                sleep.notifyAll();
            }
        }

        void join(Duration timeout) {
            try {
                thread.join(timeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            long backoff = FIRST_BACKOFF_MILLIS;
            boolean reconnecting = false;
            while (!stopped) {
                try (Connection connection = opener.open()) {
                    String schema = listen(connection);
                    backoff = FIRST_BACKOFF_MILLIS;
                    if (reconnecting) {
                        LOG.info("listening for work on PostgreSQL at {} again", location);
                    }
                    // the LISTEN above is committed: from here on, no notification is missed
                    if (reconnecting || !start.compareAndSet(Start.WAITING, Start.LISTENING)) {
                        signal();
                    }
                    listening.countDown();
                    reconnecting = true;
                    receive(connection.unwrap(PGConnection.class), schema);
                } catch (SQLException | RuntimeException e) {
                    if (stopped) {
                        return;
                    }
                    if (!reconnecting || backoff == FIRST_BACKOFF_MILLIS) {
                        LOG.warn("lost the work-arrival listener connection to PostgreSQL at {} (retrying): {}",
                                location, e.getMessage());
                    }
                    reconnecting = true;
                    pause(backoff);
                    backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                }
            }
        }

        private String listen(Connection connection) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + channel);
                try (ResultSet rows = statement.executeQuery("SELECT COALESCE(current_schema(), '')")) {
                    rows.next();
                    return rows.getString(1);
                }
            }
        }

        private void receive(PGConnection connection, String schema) throws SQLException {
            while (!stopped) {
                PGNotification[] batch = connection.getNotifications(WAIT_MILLIS);
                if (batch == null) {
                    continue;
                }
                for (PGNotification notification : batch) {
                    if (tells(notification.getParameter(), schema, ownOrigin)) {
                        signal();
                        break;
                    }
                }
            }
        }

        private void pause(long millis) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            synchronized (sleep) {
                long left;
                while (!stopped && (left = until - System.nanoTime()) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(sleep, left);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }
}
