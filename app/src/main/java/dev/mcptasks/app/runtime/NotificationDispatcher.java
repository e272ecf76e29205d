package dev.mcptasks.app.runtime;

import dev.mcptasks.domain.Backoff;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notify phase: claims due deliveries of the outbox (a lease of their own, independent of control claims),
 * marks each frozen event dispatched, hands it to the sink with its idempotency key and records the result:
 * delivered; busy (retried, not counted); gone (dead-lettered); failed (counted, backoff, dead-lettered after
 * {@link NotificationRules#MAX_ATTEMPTS} attempts). Deliveries have slots of their own, so a slow sink never takes
 * capacity from control calls. A delivery whose lease expires is claimed again elsewhere with the same frozen event.
 */
final class NotificationDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(NotificationDispatcher.class);

    private final WorkerId worker;
    private final RuntimeSettings settings;
    private final TaskRepository repository;
    private final NotificationSink sink;
    private final Clock clock;
    private final Executor executor;
    private final CapacitySlots slots;
    private final RuntimeListener listener;
    private final RuntimeCounters counters;

    NotificationDispatcher(WorkerId worker, RuntimeSettings settings, TaskRepository repository, NotificationSink sink,
            Clock clock, Executor executor, RuntimeListener listener, RuntimeCounters counters) {
        this.listener = listener;
        this.counters = counters;
        this.worker = worker;
        this.settings = settings;
        this.repository = repository;
        this.sink = sink;
        this.clock = clock;
        this.executor = executor;
        this.slots = new CapacitySlots(settings.maxConcurrentControlCalls());
    }

    /** Claims and starts due deliveries; returns how many were started. */
    int dispatch() {
        int reserved = slots.reserve(slots.capacity());
        if (reserved == 0) {
            return 0;
        }
        int started = 0;
        try {
            List<NotificationClaim> claims = repository.claimNotifications(
                    new NotificationClaimRequest(worker, reserved, settings.lease()));
            for (NotificationClaim claim : claims) {
                if (started == reserved) {
                    repository.releaseNotification(claim);
                    continue;
                }
                started++;
                counters.deliveries.incrementAndGet();
                executor.execute(() -> deliver(claim));
            }
        } finally {
            slots.release(reserved - started);
        }
        return started;
    }

    private void deliver(NotificationClaim claim) {
        CompletableFuture<DeliveryResult> delivery;
        try {
            if (!repository.markDispatched(claim)) {
                LOG.info("task {}: notification claim lost before dispatch", claim.taskId());
                slots.release(1);
                return;
            }
            delivery = sink.deliver(new Notification(claim.taskId(), claim.version(), claim.attempt(),
                    claim.idempotencyKey(), claim.eventJson()));
        } catch (RuntimeException e) {
            delivery = CompletableFuture.failedFuture(e);
        }
        delivery.whenCompleteAsync((result, error) -> {
            DeliveryResult outcome = error != null ? new DeliveryResult.Failed(Transitions.describe(error)) : result;
            try {
                record(claim, outcome);
            } catch (RuntimeException e) {
                LOG.warn("task {}: recording the delivery result failed; the lease expiry retries it: {}",
                        claim.taskId(), e.toString());
            } finally {
                slots.release(1);
                listener.notificationRecorded(claim.taskId(), outcome);
            }
        }, executor);
    }

    private void record(NotificationClaim claim, DeliveryResult result) {
        Instant now = clock.now();
        boolean recorded;
        if (result instanceof DeliveryResult.Delivered) {
            recorded = repository.finishNotification(claim);
        } else if (result instanceof DeliveryResult.Busy busy) {
            recorded = repository.retryNotification(claim, cap("busy: " + busy.detail()),
                    now.plus(settings.pollInterval()), false);
        } else if (result instanceof DeliveryResult.Gone gone) {
            recorded = repository.deadLetterNotification(claim, cap("gone: " + gone.detail()));
        } else {
            String detail = result instanceof DeliveryResult.Failed failed ? failed.detail() : String.valueOf(result);
            if (claim.attempt() >= NotificationRules.MAX_ATTEMPTS) {
                recorded = repository.deadLetterNotification(claim, cap("failed " + claim.attempt()
                        + " times, last: " + detail));
            } else {
                Instant next = now.plus(Backoff.delay(settings.pollInterval(), claim.attempt() - 1,
                        settings.maxBackoff()));
                recorded = repository.retryNotification(claim, cap(detail), next, true);
            }
        }
        if (!recorded) {
            LOG.info("task {}: notification result not recorded: the delivery lease was lost", claim.taskId());
        }
    }

    private static String cap(String text) {
        return SnapshotNormalizer.cap(text, SnapshotNormalizer.MAX_ERROR_CHARS);
    }
}
