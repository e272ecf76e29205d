package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work-arrival listeners of one repository. Writes of this process signal right after their commit
 * ({@link #signal}); commits of other processes are seen by a watcher thread that reads {@code PRAGMA data_version}
 * on a connection of its own as soon as a file of the database changes ({@link WalWatch}: a commit writes the
 * write-ahead log), and at the latest every {@link #INTERVAL}: the value changes whenever another connection committed, so it
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

    /**
     * The shortest time between two looks after one that saw a change: the file watch wakes on every commit, this
     * process's own too, and a busy writer must not make every listener rescan continuously (at most 200 looks a
     * second, four times the idle rate; a commit after a quiet spell is still seen at once).
     */
    static final Duration MIN_GAP = Duration.ofMillis(5);

    /**
     * How long after a write of this process a file wake-up is taken for that write's own file events; at its end the
     * writer connection is asked whether another process committed too ({@link #checkEchoesWith}).
     */
    static final Duration OWN_ECHO = Duration.ofMillis(2);

    /**
     * After a file wake-up that saw no commit yet, the watcher looks again for this long (a sync on a loaded machine
     * may hold the commit back for a long while, and no later file event follows), first after {@link #RECHECK_FIRST},
     * then at doubling pauses of at most {@link #RECHECK_MAX_PAUSE}: at most about 125 reads of the version, 10 us
     * each, and only after a file change.
     */
    static final Duration RECHECK_WINDOW = Duration.ofSeconds(1);

    static final Duration RECHECK_FIRST = Duration.ofMillis(1);

    static final Duration RECHECK_MAX_PAUSE = Duration.ofMillis(8);

    /**
     * How long the watcher waits for a write of this process to begin, whose start settles a change it saw, before it
     * asks an idle writer connection itself ({@link #checkEchoes}).
     */
    static final Duration ECHO_GRACE = Duration.ofMillis(1);

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
    private final Duration interval;
    private final LongSupplier ownWrites;
    /**
     * Asks the writer connection about other connections' commits; false while a write holds it (ask again). Until
     * one is given nothing can tell, so every listener is told.
     */
    private volatile BooleanSupplier echoCheck = () -> {
        foreignCommitSeen();
        return true;
    };
    /** How many times the watcher read the data version and acted on it (tests wait for looks). */
    private final AtomicLong looks = new AtomicLong();
    private Watcher watcher; // guarded by this
    private boolean closed; // guarded by this

    /**
     * @param ownWrites counts the beginnings and ends of this process's write transactions
     *     ({@link SqliteDatabase#writeActivity}): a file change while it stayed the same was another process's, and is
     *     looked at at once; after a write of this process the watcher keeps its {@link #INTERVAL} pace, as its own
     *     commits are announced by the writes themselves, and a new data version is checked with the writer connection
     *     before anyone is told
     */
    WorkArrivals(ConnectionSource connections, String path, LongSupplier ownWrites) {
        this(connections, path, ownWrites, INTERVAL);
    }

    /** @param interval the longest wait between two looks (tests make it long, to see the file watch alone) */
    WorkArrivals(ConnectionSource connections, String path, LongSupplier ownWrites, Duration interval) {
        this.connections = connections;
        this.path = path;
        this.ownWrites = ownWrites;
        this.interval = interval;
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

    /**
     * A write of this process found another process's commit (its file events may have come within the echo of
     * this process's own writes, which the watcher leaves to its periodic look): tells both kinds of listeners now.
     */
    void foreignCommitSeen() {
        signal();
        changedSomewhere();
    }

    /**
     * After a change that may be this process's own commits alone, {@code check} tells whether another process
     * committed meanwhile (by calling {@link #foreignCommitSeen}); it returns false while a write holds the writer
     * connection ({@link SqliteDatabase#checkForeignCommits}).
     */
    void checkEchoesWith(BooleanSupplier check) {
        this.echoCheck = check;
    }

    /** How many times the watcher has looked at the data version (tests). */
    long looks() {
        return looks.get();
    }

    /**
     * Settles a data version change that may be this process's own commits alone, without making the writer wait:
     * a write of this process that begins after the change was seen reads the writer connection's data version at its
     * start ({@link SqliteDatabase}), which covers every commit before it, so the watcher only waits for one to begin.
     * If the writer stays idle for {@link #ECHO_GRACE}, the watcher asks the writer connection itself: never while a
     * write is in flight (a watcher preempted while holding the writer would stall every write behind it), and again while the writer is held, since a commit made
     * between a write's commit and its release is covered by no write's start. If neither happens within
     * {@link #RECHECK_WINDOW}, or asking fails, every listener is told (spuriously, never a commit lost).
     */
    private void checkEchoes() {
        long start = System.nanoTime();
        long seenAt = ownWrites.getAsLong();
        // the count is odd while a write is in flight: that write may have begun before the change
        long covering = seenAt + (seenAt % 2 == 0 ? 1 : 2);
        try {
            while (true) {
                long activity = ownWrites.getAsLong();
                if (activity >= covering) {
                    return;
                }
                long waited = System.nanoTime() - start;
                if (waited >= ECHO_GRACE.toNanos() && activity % 2 == 0 && echoCheck.getAsBoolean()) {
                    return;
                }
                if (waited >= RECHECK_WINDOW.toNanos()) {
                    foreignCommitSeen();
                    return;
                }
                LockSupport.parkNanos(ECHO_GRACE.toNanos() / 4);
            }
        } catch (RuntimeException e) {
            LOG.debug("asking the writer about other processes' commits failed; telling every listener", e);
            foreignCommitSeen();
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
        stopped.files.close(); // wakes a watcher waiting on it
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
        final WalWatch files = WalWatch.of(path);
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
                long lastLook = System.nanoTime();
                long ownSeen = ownWrites.getAsLong();
                long ownAtLastLook = ownSeen;
                // no write of this process seen yet: no wake-up is taken for one's echo
                long ownSeenAt = lastLook - OWN_ECHO.toNanos() - 1;
                while (true) {
                    long left = interval.toNanos() - (System.nanoTime() - lastLook);
                    boolean woken = left > 0 && files.await(Duration.ofNanos(left));
                    if (!running) {
                        return;
                    }
                    long own = ownWrites.getAsLong();
                    long now = System.nanoTime();
                    if (own != ownSeen) {
                        ownSeen = own;
                        ownSeenAt = now;
                    }
                    // a wake-up right after a write of this process (its file events come in bursts) is most likely
                    // that write: keep the periodic pace for it, the write announced itself
                    if (woken && now - ownSeenAt < OWN_ECHO.toNanos()) {
                        // another process's commit may have come with the burst: once it is over, the writer
                        // connection, which knows its own commits from others', is asked (no spurious signal)
                        LockSupport.parkNanos(ownSeenAt + OWN_ECHO.toNanos() - now);
                        checkEchoes();
                        continue;
                    }
                    lastLook = now;
                    long version = dataVersion();
                    // the log is written (and synced) before the commit becomes visible: a wake-up by a write may
                    // come just before it, and no later file event follows, so look again shortly after, backing off
                    long pause = RECHECK_FIRST.toNanos();
                    long recheckUntil = now + RECHECK_WINDOW.toNanos();
                    while (woken && version == seen && running && System.nanoTime() < recheckUntil) {
                        LockSupport.parkNanos(pause);
                        pause = Math.min(pause * 2, RECHECK_MAX_PAUSE.toNanos());
                        version = dataVersion();
                    }
                    // a failed read (-1) signals at once, spuriously, so a commit made while the connection was being
                    // reopened is not missed
                    boolean changed = version != seen;
                    seen = version;
                    // read after the version: a write of ours that committed before it has begun by now, or was in
                    // flight at the last look (odd count)
                    long ownAtLook = ownWrites.getAsLong();
                    boolean ownSinceLastLook = ownAtLook != ownAtLastLook || ownAtLastLook % 2 != 0;
                    ownAtLastLook = ownAtLook;
                    looks.incrementAndGet();
                    if (changed) {
                        if (ownSinceLastLook && version != -1) {
                            // this connection sees our writer's commits too: they may be all that changed, and the
                            // writer connection tells its own commits from others' (a wrong guess here costs a
                            // question, never a lost commit)
                            checkEchoes();
                        } else {
                            signal();
                            changedSomewhere();
                        }
                        LockSupport.parkNanos(MIN_GAP.toNanos());
                    }
                }
            } finally {
                files.close();
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
