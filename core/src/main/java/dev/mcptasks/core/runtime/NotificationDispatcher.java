package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Backoff;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notify phase: claims due deliveries of the outbox (a lease of their own, independent of control claims), each
 * frozen event marked dispatched by the claim itself, hands each to the sink with its idempotency key and records the
 * result:
 * delivered; busy (retried, not counted); gone (dead-lettered); failed (counted, backoff, dead-lettered after
 * {@link NotificationRules#MAX_ATTEMPTS} counted failures). Each sink call is bounded by {@code sinkTimeout} (a
 * timeout is a counted failure). Deliveries have slots of their own, so a slow sink never takes capacity from
 * control calls. A delivery whose lease expires is claimed again elsewhere with the same frozen event; on stop,
 * deliveries still in flight are released so that happens at once.
 */
final class NotificationDispatcher implements DeliveryHandover {
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
    private final Set<Delivery> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

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

    /** Claims and starts due deliveries; returns how many slots it reserved and how many deliveries it started. */
    ScanResult dispatch() {
        if (stopping) {
            return ScanResult.NO_SLOTS;
        }
        int reserved = slots.reserve(slots.capacity());
        if (reserved == 0) {
            return ScanResult.NO_SLOTS;
        }
        int started = 0;
        try {
            // each delivery is claimed and marked dispatched in one write (persisted before send): once it returns,
            // every claimed delivery can go to its sink
            List<NotificationClaim> claims = repository.claimNotificationsDispatched(
                    new NotificationClaimRequest(worker, reserved, settings.lease()));
            for (NotificationClaim claim : claims) {
                if (started == reserved) {
                    repository.releaseNotification(claim);
                    continue;
                }
                started++;
                counters.deliveries.incrementAndGet();
                start(new Delivery(claim));
            }
        } finally {
            slots.giveBack(reserved - started);
        }
        return new ScanResult(reserved, started);
    }

    @Override
    public boolean reserveSlot() {
        return !stopping && slots.reserve(1) == 1;
    }

    @Override
    public void releaseSlot() {
        slots.giveBack(1);
    }

    /**
     * A delivery this worker's own result write took (and marked dispatched) in its commit: sent at once, in the slot
     * reserved for it, like a scanned one; no scan has to find it.
     */
    @Override
    public void handOver(TaskId id, DeliveryTake take, AttentionEvent event) {
        counters.deliveries.incrementAndGet();
        start(new Delivery(take.claimOf(id, event, clock.now().plus(take.lease()))));
    }

    /**
     * The result writes of this worker's claims, each taking its event's delivery for this phase where a slot is
     * free: the hand-over of a delivery is this phase's, never the store's.
     */
    ResultWrites resultWrites(TaskClaims claims) {
        return new ResultWrites(claims, this);
    }

    /** Hands a claimed (and dispatched) delivery to the sink on the executor; one it rejects is released. */
    private void start(Delivery delivery) {
        inFlight.add(delivery);
        try {
            executor.execute(() -> deliver(delivery));
        } catch (RuntimeException e) {
            // an executor that rejects it (stopping) must not strand the delivery: it is released now
            LOG.warn("task {}: the delivery could not be started; releasing its claim: {}", delivery.claim.taskId(),
                    e.toString());
            release(delivery);
        }
    }

    /** The delivery slots (the runtime listens to their releases to continue a full notify scan). */
    CapacitySlots slots() {
        return slots;
    }

    /**
     * Gives back every delivery still waiting for its sink (shutdown): the notification lease is released, so the
     * row is due again at once elsewhere; a result that arrives later is not recorded (its fence is gone anyway).
     */
    void stop() {
        stopping = true;
        for (Delivery delivery : List.copyOf(inFlight)) {
            release(delivery);
        }
    }

    /** Ends {@code delivery} (unless its result ended it first) by releasing its notification lease. */
    private void release(Delivery delivery) {
        if (delivery.end()) {
            try {
                if (!repository.releaseNotification(delivery.claim)) {
                    LOG.info("task {}: the notification claim was already gone when releasing it",
                            delivery.claim.taskId());
                }
            } catch (RuntimeException e) {
                LOG.warn("task {}: releasing the notification claim failed; it stays until its lease expires: {}",
                        delivery.claim.taskId(), e.toString());
            }
            delivery.sent.cancel(true);
        }
    }

    /** One delivery in flight; ended exactly once, by its recorded result or by the release on stop. */
    private final class Delivery {
        final NotificationClaim claim;
        final AtomicBoolean ended = new AtomicBoolean();
        volatile CompletableFuture<DeliveryResult> sent = new CompletableFuture<>();

        Delivery(NotificationClaim claim) {
            this.claim = claim;
        }

        boolean end() {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            inFlight.remove(this);
            slots.release(1);
            return true;
        }
    }

    private void deliver(Delivery delivery) {
        NotificationClaim claim = delivery.claim;
        if (stopping || delivery.ended.get()) {
            stop(); // released on stop (or releasing it now): the sink is never called for it
            return;
        }
        // a sink that never answers must not hold the delivery (and its slot) forever: it counts as a failure;
        // the bound starts before the sink is called, so it also covers a sink that blocks the calling thread
        CompletableFuture<DeliveryResult> bounded = new CompletableFuture<>();
        Clock.Timer timeout = clock.schedule(settings.sinkTimeout(), () -> bounded.complete(
                new DeliveryResult.Failed("the sink did not answer within " + settings.sinkTimeout()
                        + " (timed out)")));
        CompletableFuture<DeliveryResult> sent;
        try {
            sent = sink.deliver(new Notification(claim.taskId(), claim.version(), claim.attempt(),
                    claim.idempotencyKey(), claim.eventJson()));
            if (sent == null) {
                sent = CompletableFuture.failedFuture(new IllegalStateException("the sink returned no answer"));
            }
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        delivery.sent = sent;
        sent.whenComplete((result, error) -> {
            timeout.cancel();
            if (error != null) {
                bounded.complete(new DeliveryResult.Failed(Transitions.describe(error)));
            } else {
                bounded.complete(result);
            }
        });
        CompletableFuture<DeliveryResult> answered = sent;
        bounded.whenCompleteAsync((outcome, error) -> {
            if (!answered.isDone()) {
                answered.cancel(true); // timed out: stop the local request if the sink allows it
            }
            if (!delivery.end()) {
                return; // released on stop: nothing is recorded for it
            }
            try {
                record(claim, outcome);
            } catch (RuntimeException e) {
                LOG.warn("task {}: recording the delivery result failed; the lease expiry retries it: {}",
                        claim.taskId(), e.toString());
            } finally {
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
            // only counted failures lead to the dead letter: busy answers bump the dispatch attempt (each send
            // has its own idempotency key) but never the failure count
            int failures = countedFailures(claim) + 1;
            if (failures >= NotificationRules.MAX_ATTEMPTS) {
                recorded = repository.deadLetterNotification(claim, cap("failed " + failures
                        + " times, last: " + detail));
            } else {
                Instant next = now.plus(Backoff.delay(settings.pollInterval(), failures - 1,
                        settings.maxBackoff()));
                recorded = repository.retryNotification(claim, cap(detail), next, true);
            }
        }
        if (!recorded) {
            LOG.info("task {}: notification result not recorded: the delivery lease was lost", claim.taskId());
        }
    }

    /** Counted failures of the frozen version so far (the row's attempt count; busy answers are not in it). */
    private int countedFailures(NotificationClaim claim) {
        return repository.find(claim.taskId()).map(row -> row.outbox().attemptCount()).orElse(0);
    }

    private static String cap(String text) {
        return SnapshotNormalizer.cap(text, SnapshotNormalizer.MAX_ERROR_CHARS);
    }
}
