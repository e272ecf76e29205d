package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingTaskRepository;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The worker's view of its store: the fenced writes and releases of claims and deliveries go through the
 * {@link GroupCommit}, so concurrent operations share commits; claims, reads, user actions and worker rows pass
 * straight through. Each queued write calls the store behind this decorator, never the decorator itself, so a write
 * never queues from inside a batch.
 */
final class GroupCommittingRepository extends ForwardingTaskRepository {
    private final TaskRepository store;
    private final GroupCommit commits;
    private volatile DeliveryHandover handover = DeliveryHandover.NONE;

    GroupCommittingRepository(TaskRepository store, GroupCommit commits) {
        this.store = store;
        this.commits = commits;
    }

    /**
     * A write of {@code repository} that holds no thread while it waits for its commit: queued on the group commit
     * when {@code repository} is this decorator, else run on {@code executor} (a bare store, as in unit tests).
     */
    static <A, T> CompletableFuture<T> async(TaskRepository repository, Executor executor, GroupCommit.Kind<A, T> kind,
            A argument) {
        if (repository instanceof GroupCommittingRepository grouping) {
            return grouping.commits.submit(kind, argument);
        }
        return CompletableFuture.supplyAsync(() -> kind.alone().apply(repository, argument), executor);
    }

    /**
     * Writes of {@code kind} queued as one unit, so they share one commit and, where the store can, one statement
     * (see {@link GroupCommit#submitAll}); on a bare store each runs on {@code executor}.
     */
    static <A, T> List<CompletableFuture<T>> asyncTogether(TaskRepository repository, Executor executor,
            GroupCommit.Kind<A, T> kind, List<A> arguments) {
        if (repository instanceof GroupCommittingRepository grouping) {
            return grouping.commits.submitAll(kind, arguments);
        }
        return arguments.stream().map(argument -> async(repository, executor, kind, argument)).toList();
    }

    @Override
    protected TaskRepository delegate() {
        return store;
    }

    /** Where a submit or poll result that took its event's delivery hands it (the notify phase). */
    void handDeliveriesTo(DeliveryHandover handover) {
        this.handover = Objects.requireNonNull(handover, "handover");
    }

    /**
     * A result write that may take its event's delivery: the take is kept only with a delivery slot reserved for it,
     * and once the write committed the delivery is handed over in that slot; a refused or failed write gives the slot
     * back. A write applied with its take took the delivery: the worker offers a take only where nothing else can
     * change the outbox meanwhile (see {@link DeliveryTake}).
     */
    private <W> boolean taking(Claim claim, W write, DeliveryTake take, AttentionEvent event,
            BiFunction<W, DeliveryTake, W> withTake, Predicate<W> run) {
        DeliveryHandover to = handover;
        boolean kept = take != null && to.reserveSlot();
        W sent = take != null && !kept ? withTake.apply(write, null) : write;
        boolean applied;
        try {
            applied = run.test(sent);
        } catch (RuntimeException | Error e) {
            if (kept) {
                to.releaseSlot();
            }
            throw e;
        }
        if (kept) {
            if (applied) {
                to.handOver(claim.taskId(), take, event);
            } else {
                to.releaseSlot();
            }
        }
        return applied;
    }

    @Override
    public boolean renew(Claim claim, Duration lease) {
        return commits.run(BatchedWrites.renew(lease), claim);
    }

    @Override
    public boolean recordSubmitAttempt(Claim claim) {
        return commits.run(BatchedWrites.RECORD_SUBMIT_ATTEMPT, claim);
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        return taking(claim, write, write.take(), write.event(), SubmitWrite::withTake,
                sent -> commits.run(BatchedWrites.APPLY_SUBMITTED, new ClaimedWrite<>(claim, sent)));
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return taking(claim, write, write.take(), write.event(), OutcomeWrite::withTake,
                sent -> commits.run(BatchedWrites.APPLY_OUTCOME, new ClaimedWrite<>(claim, sent)));
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return commits.runOn(claim.taskId(), () -> store.releaseAfterFailure(claim, write));
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return commits.runOn(claim.taskId(), () -> store.releaseCancelled(claim));
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        return commits.runOn(claim.taskId(), () -> store.abandonCancel(claim, reason, nextControlAt));
    }

    @Override
    public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return commits.runOn(claim.taskId(), () -> store.releaseToEndpoint(claim, endpointOwner));
    }

    @Override
    public boolean finishNotification(NotificationClaim claim) {
        return commits.run(BatchedWrites.FINISH_NOTIFICATION, claim);
    }

    @Override
    public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return commits.runOn(claim.taskId(), () -> store.retryNotification(claim, error, nextAt, counted));
    }

    @Override
    public boolean deadLetterNotification(NotificationClaim claim, String error) {
        return commits.runOn(claim.taskId(), () -> store.deadLetterNotification(claim, error));
    }

    @Override
    public boolean releaseNotification(NotificationClaim claim) {
        return commits.runOn(claim.taskId(), () -> store.releaseNotification(claim));
    }
}
