package dev.mcptasks.core.runtime;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Coalesced requests for passes of the control loop (the tick timer, work arrivals, work-conserving rescans): at
 * most one pass runs at a time and at most one more is pending. A request made while a pass runs is merged into the
 * pending one, so any number of wake-ups during a pass costs exactly one more pass, and a burst of signals from the
 * store never queues a pass per signal. {@link #request} only records and hands off: it is called on store and
 * timer threads, which must not wait for a scan.
 */
final class ScanRequests {
    private static final Logger LOG = LoggerFactory.getLogger(ScanRequests.class);

    private final Executor executor;
    private final Consumer<Set<Scan>> pass;
    /** Scans asked for and not yet taken by a pass; guarded by this. */
    private final EnumSet<Scan> requested = EnumSet.noneOf(Scan.class);
    /** A drain is queued or running on the executor; guarded by this. */
    private boolean active;

    /** @param pass runs the given scans on the calling thread; a failure is its own to log */
    ScanRequests(Executor executor, Consumer<Set<Scan>> pass) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.pass = Objects.requireNonNull(pass, "pass");
    }

    /** Asks for a pass over {@code scans}; returns at once. */
    void request(Set<Scan> scans) {
        synchronized (this) {
            requested.addAll(scans);
            if (active) {
                return; // the running drain takes them when its current pass ends
            }
            active = true;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            // the executor is shutting down with the worker; the tick timer is cancelled by then as well
            synchronized (this) {
                active = false;
                requested.clear();
            }
            LOG.debug("a scan pass was not started: the executor refused it: {}", e.toString());
        }
    }

    /**
     * Runs passes until nothing is requested. A request made during a pass adds to the set the next pass takes, so
     * the loop ends only when a whole pass ran with no request arriving.
     */
    private void drain() {
        boolean ended = false;
        try {
            while (true) {
                Set<Scan> scans;
                synchronized (this) {
                    if (requested.isEmpty()) {
                        active = false;
                        ended = true;
                        return;
                    }
                    scans = EnumSet.copyOf(requested);
                    requested.clear();
                }
                try {
                    pass.accept(scans);
                } catch (RuntimeException e) {
                    LOG.warn("a scan pass failed; the next request or tick tries again", e);
                }
            }
        } finally {
            if (!ended) {
                // an Error escaped the pass: later requests must still be able to start a drain
                synchronized (this) {
                    active = false;
                }
            }
        }
    }
}
