package dev.mcptasks.adapters.stdio;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The stdio shutdown ladder: after stdin was closed, wait; then SIGTERM and wait; then SIGKILL. */
final class ChildProcessShutdown {

    /** How the child ended. */
    enum Ending {
        /** It exited by itself after stdin closed. */
        EXITED,
        /** It needed SIGTERM. */
        TERMINATED,
        /** It needed SIGKILL. */
        KILLED,
        /** It survived even SIGKILL within the wait (a zombie or an uninterruptible sleep). */
        STILL_ALIVE
    }

    private ChildProcessShutdown() {}

    /** Ends {@code process}, whose stdin the caller has already closed (or tried to), waiting {@code grace} per step. */
    static Ending stop(Process process, Duration grace) {
        if (waitFor(process, grace)) {
            return Ending.EXITED;
        }
        process.destroy();
        if (waitFor(process, grace)) {
            return Ending.TERMINATED;
        }
        process.destroyForcibly();
        return waitFor(process, grace) ? Ending.KILLED : Ending.STILL_ALIVE;
    }

    private static boolean waitFor(Process process, Duration grace) {
        try {
            return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            // keep climbing the ladder; the caller's interrupt status is restored for it to see
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }
}
