package dev.mcptasks.adapters.sqlite;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes the work-arrival watcher when a file of the database changes (a commit writes the write-ahead log), so another
 * process's commit is seen at once instead of at the next look. On Linux the JDK watches with inotify; where the file
 * system cannot be watched (or the JDK only polls), {@link #await} simply waits its bound, and the watcher's periodic
 * look still finds every commit. A wake-up is only a hint: the caller reads the data version to tell a commit.
 */
final class WalWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalWatch.class);

    private final WatchService service;
    private final String prefix;

    private WalWatch(WatchService service, String prefix) {
        this.service = service;
        this.prefix = prefix;
    }

    /** Watches the directory of {@code database} for changes of its files ({@code NAME}, {@code NAME-wal}). */
    static WalWatch of(String database) {
        Path file = Path.of(database).toAbsolutePath();
        WatchService service = null;
        try {
            service = FileSystems.getDefault().newWatchService();
            file.getParent().register(service, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_CREATE);
            return new WalWatch(service, file.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot watch the directory of SQLite database '{}'; commits of other processes are seen at the"
                    + " next look", database, e);
            closeQuietly(service);
            return new WalWatch(null, "");
        }
    }

    /**
     * Returns when a file of the database changed, or after {@code max}; true when it was woken by a change. Changes
     * of other files in the directory are skipped without returning early.
     */
    boolean await(Duration max) {
        if (service == null) {
            LockSupport.parkNanos(max.toNanos());
            return false;
        }
        long deadline = System.nanoTime() + max.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                WatchKey key = service.poll(left, TimeUnit.NANOSECONDS);
                if (key == null) {
                    return false;
                }
                boolean ours = false;
                for (WatchEvent<?> event : key.pollEvents()) {
                    // an overflow lost events, possibly ours: treat it as a change
                    ours |= event.kind() == StandardWatchEventKinds.OVERFLOW
                            || (event.context() instanceof Path name && name.toString().startsWith(prefix));
                }
                key.reset();
                if (ours) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ClosedWatchServiceException e) {
            return false;
        }
    }

    @Override
    public void close() {
        closeQuietly(service);
    }

    private static void closeQuietly(WatchService service) {
        if (service == null) {
            return;
        }
        try {
            service.close();
        } catch (IOException e) {
            LOG.debug("closing a file watch failed", e);
        }
    }
}
