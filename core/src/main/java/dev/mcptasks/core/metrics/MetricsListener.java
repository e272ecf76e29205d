package dev.mcptasks.core.metrics;

import dev.mcptasks.core.runtime.RenewalOutcome;
import dev.mcptasks.core.runtime.RuntimeListener;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.notification.DeliveryResult;
import java.time.Duration;
import java.util.Objects;

/**
 * Tells the {@link Metrics} the runtime's milestones (renewals by outcome, notification deliveries by result) and
 * passes every milestone on to {@code next}.
 */
public final class MetricsListener implements RuntimeListener {
    private final Metrics metrics;
    private final RuntimeListener next;

    public MetricsListener(Metrics metrics, RuntimeListener next) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.next = Objects.requireNonNull(next, "next");
    }

    @Override
    public void renewalDecided(TaskId task, RenewalOutcome outcome) {
        metrics.leaseRenewal(outcome instanceof RenewalOutcome.Renewed ? Metrics.RenewalResult.RENEWED
                : outcome instanceof RenewalOutcome.Rejected ? Metrics.RenewalResult.REJECTED
                : outcome instanceof RenewalOutcome.Failed ? Metrics.RenewalResult.FAILED
                : Metrics.RenewalResult.STALLED);
        next.renewalDecided(task, outcome);
    }

    @Override
    public void notificationRecorded(TaskId task, DeliveryResult result) {
        metrics.notificationDelivery(result instanceof DeliveryResult.Delivered ? "delivered"
                : result instanceof DeliveryResult.Busy ? "busy"
                : result instanceof DeliveryResult.Gone ? "gone"
                : "failed");
        next.notificationRecorded(task, result);
    }

    @Override
    public void ownershipLost(TaskId task, String cause) {
        next.ownershipLost(task, cause);
    }

    @Override
    public void operationFinished(TaskId task) {
        next.operationFinished(task);
    }

    @Override
    public void movedToBackground(TaskId task) {
        next.movedToBackground(task);
    }

    @Override
    public void finalWriteRetry(TaskId task, Duration delay) {
        next.finalWriteRetry(task, delay);
    }

    @Override
    public void operationSettled(TaskId task) {
        next.operationSettled(task);
    }

    @Override
    public void taskChanged(TaskId task) {
        next.taskChanged(task);
    }

    @Override
    public void callProgress(TaskId task, CallProgress progress) {
        next.callProgress(task, progress);
    }

    @Override
    public void tickFinished() {
        next.tickFinished();
    }
}
