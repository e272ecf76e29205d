package dev.mcptasks.app.runtime;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claim scan of one control phase: reserves every free slot before reading candidates (so concurrent scans of
 * this worker never admit more calls than slots), claims at most that many rows, excluding rows whose earlier
 * operation has not settled, hands each claimed row to the supervisor and returns the unused reservations. A busy
 * store is retried: a failed scan changed nothing.
 */
final class ClaimScanner {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimScanner.class);

    /** Builds the operation for one claimed row. */
    interface OperationFactory {
        ControlOperation create(ClaimedTask claimed, long claimedAtNanos);
    }

    private final WorkerId worker;
    private final RuntimeSettings settings;
    private final TaskRepository repository;
    private final Clock clock;
    private final CapacitySlots slots;
    private final BatchSupervisor supervisor;
    private final RuntimeCounters counters;
    private final OperationFactory operations;
    private final Retry retry = Retry.of("claim-scan", RetryConfig.custom()
            .maxAttempts(3)
            .waitDuration(Duration.ofMillis(50))
            .retryOnException(e -> e instanceof TransientRepositoryException)
            .build());

    ClaimScanner(WorkerId worker, RuntimeSettings settings, TaskRepository repository, Clock clock,
            CapacitySlots slots, BatchSupervisor supervisor, RuntimeCounters counters, OperationFactory operations) {
        this.worker = worker;
        this.settings = settings;
        this.repository = repository;
        this.clock = clock;
        this.slots = slots;
        this.supervisor = supervisor;
        this.counters = counters;
        this.operations = operations;
    }

    /** Claims and launches due rows of {@code phase}; returns how many were admitted. */
    int scan(ClaimPhase phase) {
        int reserved = slots.reserve(slots.capacity());
        if (reserved == 0) {
            return 0; // every slot is held (possibly by uncooperative cleanup): new calls wait
        }
        int admitted = 0;
        try {
            long claimedAtNanos = clock.nanoTime();
            // liveness is judged by the store's clock: this worker's clock never decides whether another is alive
            ControlClaimRequest request = new ControlClaimRequest(phase, worker, reserved, settings.lease(),
                    settings.workerStaleAfter(), supervisor.unsettled());
            List<ClaimedTask> claimed = retry.executeSupplier(() -> repository.claimControl(request));
            for (ClaimedTask task : claimed) {
                if (admitted == reserved) {
                    LOG.warn("the store returned more {} claims than the limit {}; releasing task {}",
                            phase.wireName(), reserved, task.claim().taskId());
                    repository.releaseCancelled(task.claim());
                    continue;
                }
                admitted++;
                counters.claims.incrementAndGet();
                if (task.recovered()) {
                    counters.recoveries.incrementAndGet();
                    LOG.info("task {}: recovered an expired {} claim", task.claim().taskId(), phase.wireName());
                }
                supervisor.launch(operations.create(task, claimedAtNanos));
            }
        } finally {
            slots.release(reserved - admitted);
        }
        return admitted;
    }
}
