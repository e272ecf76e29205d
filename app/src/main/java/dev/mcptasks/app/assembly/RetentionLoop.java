package dev.mcptasks.app.assembly;

import dev.mcptasks.app.lifecycle.LifecycleListener;
import dev.mcptasks.core.retention.PurgeResult;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's retention: one purge pass every {@link RetentionPolicy#interval()}, timed by the {@link Clock} and run on
 * a thread of its own, apart from the claim path, whose store transactions it leaves room for between its batches,
 * and apart from the clock's timer thread, which renewals need on time. The next pass is due an interval after the
 * previous one ended, so a pass longer than the interval (a first purge of a million rows) is never overlapped by the
 * next. Every worker runs one; their deletes are by status and age, so passes of several workers that overlap delete
 * each row once. A pass that fails (the store is down) is logged in one line and the next one tries again; a pass
 * that deleted something is recorded in the audit log.
 */
final class RetentionLoop implements LifecycleListener {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionLoop.class);

    private final Purger purger;
    private final RetentionPolicy policy;
    private final AuditLog audit;
    private final WorkerId worker;
    private final Clock clock;
    private final ExecutorService passes;
    private Clock.Timer next;
    private boolean stopped;

    RetentionLoop(Purger purger, RetentionPolicy policy, AuditLog audit, WorkerId worker, Clock clock) {
        this(purger, policy, audit, worker, clock, Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-retention");
            thread.setDaemon(true);
            return thread;
        }));
    }

    /** @param passes runs the passes, one at a time (tests run them on the thread that moves the clock) */
    RetentionLoop(Purger purger, RetentionPolicy policy, AuditLog audit, WorkerId worker, Clock clock,
            ExecutorService passes) {
        this.purger = Objects.requireNonNull(purger, "purger");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.worker = Objects.requireNonNull(worker, "worker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.passes = Objects.requireNonNull(passes, "passes");
    }

    @Override
    public void start() {
        scheduleNext();
    }

    private synchronized void scheduleNext() {
        if (!stopped) {
            next = clock.schedule(policy.interval(), this::due);
        }
    }

    /** On the clock's timer, which must not wait: the pass goes to the loop's own thread. */
    private void due() {
        try {
            passes.execute(() -> {
                try {
                    pass();
                } finally {
                    scheduleNext();
                }
            });
        } catch (RejectedExecutionException stopping) {
            // stop() shut the thread down after this timer fired: no pass, and none after it
        }
    }

    private void pass() {
        try {
            PurgeResult result = purger.purge(policy);
            if (result.tasks() > 0 || result.auditRecords() > 0) {
                LOG.info("retention: purged {} finished tasks and {} audit records", result.tasks(),
                        result.auditRecords());
                audit.append(new AuditEntry(worker.value(), AuditChannel.WORKER, AuditAction.PURGE, null,
                        "retention: " + result.tasks() + " tasks, " + result.auditRecords() + " audit records"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the loop must survive a failed pass (a store that is down), or retention would stop for good
            LOG.warn("retention: purge pass failed, retrying in {}: {}", policy.interval(), e.toString());
        }
    }

    @Override
    public void stop() throws InterruptedException {
        synchronized (this) {
            stopped = true;
            if (next != null) {
                next.cancel();
            }
        }
        passes.shutdownNow();
        passes.awaitTermination(10, TimeUnit.SECONDS);
    }
}
