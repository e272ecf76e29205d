package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The worker's view of its store: the fenced writes and releases of claims and deliveries go through the
 * {@link GroupCommit}, so concurrent operations share commits; claims, reads, user actions and worker rows pass
 * straight through. Each queued write calls the store behind this decorator, never the decorator itself, so a write
 * never queues from inside a batch. Only the claims and the outbox are wrapped.
 */
final class GroupCommittingRepository implements ComposedTaskRepository {
    private final Roles roles;
    private final GroupCommit commits;

    GroupCommittingRepository(TaskRepository store, GroupCommit commits) {
        this.roles = ComposedTaskRepository.of(store)
                .withClaims(claims -> new GroupCommittedClaims(claims, commits))
                .withOutbox(outbox -> new GroupCommittedOutbox(outbox, commits));
        this.commits = commits;
    }

    @Override
    public Roles roles() {
        return roles;
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

    /** The claims' fenced writes and releases, each waiting for a shared commit. */
    private static final class GroupCommittedClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;
        private final GroupCommit commits;

        GroupCommittedClaims(TaskClaims store, GroupCommit commits) {
            this.delegate = store;
            this.commits = commits;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
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
            return commits.run(BatchedWrites.APPLY_SUBMITTED, new ClaimedWrite<>(claim, write));
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            return commits.run(BatchedWrites.APPLY_OUTCOME, new ClaimedWrite<>(claim, write));
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            return commits.runOn(claim.taskId(), () -> delegate().releaseAfterFailure(claim, write));
        }

        @Override
        public boolean releaseCancelled(Claim claim) {
            return commits.runOn(claim.taskId(), () -> delegate().releaseCancelled(claim));
        }

        @Override
        public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
            return commits.runOn(claim.taskId(), () -> delegate().abandonCancel(claim, reason, nextControlAt));
        }

        @Override
        public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
            return commits.runOn(claim.taskId(), () -> delegate().releaseToEndpoint(claim, endpointOwner));
        }
    }

    /** The deliveries' fenced writes and releases, each waiting for a shared commit. */
    private static final class GroupCommittedOutbox implements ForwardingNotificationOutbox {
        private final NotificationOutbox delegate;
        private final GroupCommit commits;

        GroupCommittedOutbox(NotificationOutbox store, GroupCommit commits) {
            this.delegate = store;
            this.commits = commits;
        }

        @Override
        public NotificationOutbox delegate() {
            return delegate;
        }

        @Override
        public boolean finishNotification(NotificationClaim claim) {
            return commits.run(BatchedWrites.FINISH_NOTIFICATION, claim);
        }

        @Override
        public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
            return commits.runOn(claim.taskId(), () -> delegate().retryNotification(claim, error, nextAt, counted));
        }

        @Override
        public boolean deadLetterNotification(NotificationClaim claim, String error) {
            return commits.runOn(claim.taskId(), () -> delegate().deadLetterNotification(claim, error));
        }

        @Override
        public boolean releaseNotification(NotificationClaim claim) {
            return commits.runOn(claim.taskId(), () -> delegate().releaseNotification(claim));
        }
    }
}
