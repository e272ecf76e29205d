package dev.mcptasks.app.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.WorkerId;
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
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The worker's view of its store: the fenced writes and releases of claims and deliveries go through the
 * {@link GroupCommit}, so concurrent operations share commits; claims, reads, user actions and worker rows pass
 * straight through. Each queued write calls the store behind this decorator, never the decorator itself, so a write
 * never queues from inside a batch.
 */
final class GroupCommittingRepository extends ForwardingTaskRepository {
    private final TaskRepository store;
    private final GroupCommit commits;

    GroupCommittingRepository(TaskRepository store, GroupCommit commits) {
        this.store = store;
        this.commits = commits;
    }

    /**
     * A write of {@code repository} that holds no thread while it waits for its commit: queued on the group commit
     * when {@code repository} is this decorator, else run on {@code executor} (a bare store, as in unit tests).
     */
    static <T> CompletableFuture<T> async(TaskRepository repository, Executor executor,
            Function<TaskRepository, T> write) {
        if (repository instanceof GroupCommittingRepository grouping) {
            return grouping.commits.submit(() -> write.apply(grouping.store));
        }
        return CompletableFuture.supplyAsync(() -> write.apply(repository), executor);
    }

    /**
     * Writes of {@code repository} queued as one unit, so they share one commit (see {@link GroupCommit#submitAll});
     * on a bare store each runs on {@code executor}.
     */
    static <T> List<CompletableFuture<T>> asyncTogether(TaskRepository repository, Executor executor,
            List<Function<TaskRepository, T>> writes) {
        if (repository instanceof GroupCommittingRepository grouping) {
            return grouping.commits.submitAll(writes.stream()
                    .map(write -> (Supplier<T>) () -> write.apply(grouping.store)).toList());
        }
        return writes.stream().map(write -> async(repository, executor, write)).toList();
    }

    @Override
    protected TaskRepository delegate() {
        return store;
    }

    @Override
    public boolean renew(Claim claim, Duration lease) {
        return commits.run(() -> store.renew(claim, lease));
    }

    @Override
    public boolean recordSubmitAttempt(Claim claim) {
        return commits.run(() -> store.recordSubmitAttempt(claim));
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        return commits.run(() -> store.applySubmitted(claim, write));
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return commits.run(() -> store.applyOutcome(claim, write));
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return commits.run(() -> store.releaseAfterFailure(claim, write));
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return commits.run(() -> store.releaseCancelled(claim));
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        return commits.run(() -> store.abandonCancel(claim, reason, nextControlAt));
    }

    @Override
    public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return commits.run(() -> store.releaseToEndpoint(claim, endpointOwner));
    }

    @Override
    public boolean markDispatched(NotificationClaim claim) {
        return commits.run(() -> store.markDispatched(claim));
    }

    @Override
    public boolean finishNotification(NotificationClaim claim) {
        return commits.run(() -> store.finishNotification(claim));
    }

    @Override
    public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return commits.run(() -> store.retryNotification(claim, error, nextAt, counted));
    }

    @Override
    public boolean deadLetterNotification(NotificationClaim claim, String error) {
        return commits.run(() -> store.deadLetterNotification(claim, error));
    }

    @Override
    public boolean releaseNotification(NotificationClaim claim) {
        return commits.run(() -> store.releaseNotification(claim));
    }
}
