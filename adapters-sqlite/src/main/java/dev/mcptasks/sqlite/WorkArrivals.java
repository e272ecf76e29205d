package dev.mcptasks.sqlite;

import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work-arrival listeners of one repository. Writes of this process signal right after their commit
 * ({@link #signal}); commits of other processes are seen by a watcher thread that reads {@code PRAGMA data_version}
 * on a connection of its own every {@link #INTERVAL}: the value changes whenever another connection committed, so it
 * also changes for this process's own writer (a spurious signal, which listeners accept). The same thread tells the
 * task-change listeners ({@link #subscribeChanges}) of such commits: readers that wait on rows another process writes.
 * The thread runs only while someone listens: started by the first subscription of either kind, stopped when the
 * last one closes or the repository closes.
 */
final class WorkArrivals implements AutoCloseable {
    /**
     * How often the watcher looks: a commit of another process is seen within this. One look costs about 10 us of
     * CPU for the pragma and, on a loaded machine, about 50 us for the timed wake-up itself (measured on 2 shared
     * cores), so 20 ms keeps an idle watcher near half a percent of one core.
     */
    static final Duration INTERVAL = Duration.ofMillis(20);

    private static final Logger LOG = LoggerFactory.getLogger(WorkArrivals.class);

    /** Opens the watcher's own read connection (never one of the pools: it would hold one for good). */
    @FunctionalInterface
    interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<TaskChangeListener> changeListeners = new CopyOnWriteArrayList<>();
    private final ConnectionSource connections;
    private final String path;
    private Watcher watcher; // guarded by this
    private boolean closed; // guarded by this

    WorkArrivals(ConnectionSource connections, String path) {
        this.connections = connections;
        this.path = path;
    }

    synchronized WorkSubscription subscribe(Runnable listener) {
        if (closed) {
            return WorkSubscription.NONE;
        }
        // a fresh wrapper per subscription: the same Runnable subscribed twice is removed once per close
        Runnable entry = listener::run;
        listeners.add(entry);
        startWatching();
        return () -> unsubscribe(listeners, entry);
    }

    /** Tells {@code listener} of every commit the watcher sees (it cannot tell which rows changed). */
    synchronized WorkSubscription subscribeChanges(TaskChangeListener listener) {
        if (closed) {
            return WorkSubscription.NONE;
        }
        TaskChangeListener entry = TaskChangeListener.forwardingTo(listener);
        changeListeners.add(entry);
        startWatching();
        return () -> unsubscribe(changeListeners, entry);
    }

    private void startWatching() { // guarded by this
        if (watcher == null) {
            watcher = new Watcher();
            // the baseline is read before the subscription returns: a commit made right after it (another process's
            // create) changes the version the watcher compares against, so it is never taken as the baseline
            watcher.seen = watcher.dataVersion();
            watcher.start();
        }
    }

    /** Calls every listener now; a listener that throws does not undo the write it was told about. */
    void signal() {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("work-arrival listener failed", e);
            }
        }
    }

    private void changedSomewhere() {
        for (TaskChangeListener listener : changeListeners) {
            try {
                listener.changedSomewhere();
            } catch (RuntimeException e) {
                LOG.warn("task-change listener failed", e);
            }
        }
    }

    /** Whether the watcher thread is running (tests). */
    synchronized boolean watching() {
        return watcher != null;
    }

    @Override
    public void close() {
        Watcher stopped;
        synchronized (this) {
            closed = true;
            listeners.clear();
            changeListeners.clear();
            stopped = watcher;
            watcher = null;
        }
        stop(stopped);
    }

    private <T> void unsubscribe(List<T> list, T entry) {
        Watcher stopped = null;
        synchronized (this) {
            if (list.remove(entry) && listeners.isEmpty() && changeListeners.isEmpty()) {
                stopped = watcher;
                watcher = null;
            }
        }
        stop(stopped);
    }

    private static void stop(Watcher stopped) {
        if (stopped == null) {
            return;
        }
        stopped.running = false;
        LockSupport.unpark(stopped);
        if (Thread.currentThread() != stopped) {
            try {
                stopped.join(Duration.ofSeconds(5).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The watcher thread: one connection, one pragma read per interval. */
    private final class Watcher extends Thread {
        volatile boolean running = true;
        /** The version last read: the baseline is read by the subscriber before {@link #start}, then by the thread. */
        private long seen;
        private Connection connection;
        private PreparedStatement statement;

        Watcher() {
            super("sqlite-work-arrivals " + path);
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    LockSupport.parkNanos(INTERVAL.toNanos());
                    if (!running) {
                        return;
                    }
                    long version = dataVersion();
                    // a failed read (-1) signals at once, spuriously, so a commit made while the connection was being
                    // reopened is not missed
                    if (version != seen) {
                        signal();
                        changedSomewhere();
                    }
                    seen = version;
                }
            } finally {
                closeConnection();
            }
        }

        /** The data version, or -1 when it cannot be read now (the connection is reopened on the next call). */
        private long dataVersion() {
            try {
                if (connection == null) {
                    connection = connections.open();
                    statement = connection.prepareStatement("PRAGMA data_version");
                }
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            } catch (SQLException | RuntimeException e) {
                LOG.debug("cannot read the data version of SQLite database '{}'", path, e);
                closeConnection();
                return -1;
            }
        }

        private void closeConnection() {
            try {
                if (connection != null) {
                    connection.close();
                }
            } catch (SQLException e) {
                LOG.debug("closing the work-arrival connection failed", e);
            }
            connection = null;
            statement = null;
        }
    }
}
