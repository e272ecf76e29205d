package dev.mcptasks.app.assembly;

import dev.mcptasks.app.lifecycle.LifecycleListener;
import dev.mcptasks.core.retention.PurgeResult;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's retention: one purge pass every {@link RetentionPolicy#interval()} on a thread of its own, apart from the
 * claim path, whose store transactions it leaves room for between its batches. Every worker runs one; their deletes
 * are by status and age, so passes that overlap delete each row once. A pass that fails (the store is down) is
 * logged in one line and the next one tries again; a pass that deleted something is recorded in the audit log.
 */
final class RetentionLoop implements LifecycleListener {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionLoop.class);

    private final Purger purger;
    private final RetentionPolicy policy;
    private final AuditLog audit;
    private final WorkerId worker;
    private ScheduledExecutorService timer;

    RetentionLoop(Purger purger, RetentionPolicy policy, AuditLog audit, WorkerId worker) {
        this.purger = Objects.requireNonNull(purger, "purger");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.worker = Objects.requireNonNull(worker, "worker");
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-retention");
            thread.setDaemon(true);
            return thread;
        });
        long interval = policy.interval().toMillis();
        timer.scheduleWithFixedDelay(this::pass, interval, interval, TimeUnit.MILLISECONDS);
    }

    void pass() {
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
            // the timer must survive a failed pass (a store that is down), or retention would stop for good
            LOG.warn("retention: purge pass failed, retrying in {}: {}", policy.interval(), e.toString());
        }
    }

    @Override
    public void stop() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(10, TimeUnit.SECONDS);
    }
}
