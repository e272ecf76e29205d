package dev.mcptasks.core.metrics;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.ForwardingTaskRecords;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRecords;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells the {@link Metrics} what the store accepted: tasks created, tasks that reached a terminal status (labelled by
 * the definition the claim read, never by the task), claim statements with their duration and takeovers, and every
 * fenced write the store refused. Counts only what committed: a refused write finished nothing. Only the task
 * records and the claims are wrapped.
 */
public final class MeteringRepository implements ComposedTaskRepository {
    private final Roles roles;

    public MeteringRepository(TaskRepository delegate, Metrics metrics, Clock clock) {
        Objects.requireNonNull(metrics, "metrics");
        Map<ClaimToken, TaskRecord.Definition> claimed = new ConcurrentHashMap<>();
        this.roles = ComposedTaskRepository.of(Objects.requireNonNull(delegate, "delegate"))
                .withTasks(tasks -> new MeteringTasks(tasks, metrics, claimed))
                .withClaims(claims -> new MeteringClaims(claims, metrics, Objects.requireNonNull(clock, "clock"),
                        claimed));
    }

    @Override
    public Roles roles() {
        return roles;
    }

    private static void finished(Metrics metrics, TaskRecord.Definition definition, TaskStatus status) {
        metrics.taskFinished(definition.serverName(), definition.toolName(), definition.principal(), status);
    }

    /**
     * Tasks created (one created claimed is also a submit claim taken, whose result {@link MeteringClaims} labels as a
     * scan's), and tasks a cancel request ended before they were sent.
     */
    private static final class MeteringTasks implements ForwardingTaskRecords {
        private final TaskRecords delegate;
        private final Metrics metrics;
        private final Map<ClaimToken, TaskRecord.Definition> claimed;

        MeteringTasks(TaskRecords delegate, Metrics metrics, Map<ClaimToken, TaskRecord.Definition> claimed) {
            this.delegate = delegate;
            this.metrics = metrics;
            this.claimed = claimed;
        }

        @Override
        public TaskRecords delegate() {
            return delegate;
        }

        @Override
        public TaskRecord create(NewTask task) {
            TaskRecord created = delegate().create(task);
            metrics.taskSubmitted(task.serverName(), task.toolName(), task.principal());
            if (task.claim() != null) {
                claimed.put(task.claim().token(), created.definition());
                metrics.claimsTaken(ClaimPhase.SUBMIT, 1);
            }
            return created;
        }

        @Override
        public CancelRequestOutcome requestCancel(TaskId id) {
            CancelRequestOutcome outcome = delegate().requestCancel(id);
            if (outcome == CancelRequestOutcome.CANCELLED_LOCALLY) {
                // never sent: no worker's write finishes it, so the cancel request is its terminal write
                delegate().find(id).ifPresent(task -> finished(metrics, task.definition(), TaskStatus.CANCELLED));
            }
            return outcome;
        }
    }

    /** Claim statements, takeovers, terminal results and refused fenced writes. */
    private static final class MeteringClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;
        private final Metrics metrics;
        private final Clock clock;
        /**
         * The definition of each claimed row, by claim token (claimed by a statement here, or at its create); removed
         * when the claim's last write is made.
         */
        private final Map<ClaimToken, TaskRecord.Definition> claimed;

        MeteringClaims(TaskClaims delegate, Metrics metrics, Clock clock,
                Map<ClaimToken, TaskRecord.Definition> claimed) {
            this.delegate = delegate;
            this.metrics = metrics;
            this.clock = clock;
            this.claimed = claimed;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
            long start = clock.nanoTime();
            List<ClaimedTask> tasks = delegate().claimControl(request);
            metrics.claimScanned(request.phase(), Duration.ofNanos(clock.nanoTime() - start));
            metrics.claimsTaken(request.phase(), tasks.size());
            for (ClaimedTask task : tasks) {
                claimed.put(task.claim().token(), task.task().definition());
                if (task.recovered()) {
                    metrics.takeover(request.phase());
                }
            }
            return tasks;
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            return fenced(delegate().renew(claim, lease));
        }

        @Override
        public List<Boolean> renewAll(List<Claim> claims, Duration lease) {
            return fenced(delegate().renewAll(claims, lease));
        }

        @Override
        public boolean recordSubmitAttempt(Claim claim) {
            return fenced(delegate().recordSubmitAttempt(claim));
        }

        @Override
        public List<Boolean> recordSubmitAttempts(List<Claim> claims) {
            return fenced(delegate().recordSubmitAttempts(claims));
        }

        @Override
        public boolean recordProgress(Claim claim, String statusMessage) {
            return fenced(delegate().recordProgress(claim, statusMessage));
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            return written(claim, write.snapshot().status(), delegate().applySubmitted(claim, write));
        }

        @Override
        public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
            List<Boolean> applied = delegate().applySubmittedAll(writes);
            for (int i = 0; i < writes.size(); i++) {
                written(writes.get(i).claim(), writes.get(i).write().snapshot().status(), applied.get(i));
            }
            return applied;
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            return written(claim, write.snapshot().status(), delegate().applyOutcome(claim, write));
        }

        @Override
        public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
            List<Boolean> applied = delegate().applyOutcomes(writes);
            for (int i = 0; i < writes.size(); i++) {
                written(writes.get(i).claim(), writes.get(i).write().snapshot().status(), applied.get(i));
            }
            return applied;
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            claimed.remove(claim.token());
            return fenced(delegate().releaseAfterFailure(claim, write));
        }

        @Override
        public boolean releaseCancelled(Claim claim) {
            claimed.remove(claim.token());
            return fenced(delegate().releaseCancelled(claim));
        }

        @Override
        public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
            claimed.remove(claim.token());
            return fenced(delegate().abandonCancel(claim, reason, nextControlAt));
        }

        @Override
        public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
            claimed.remove(claim.token());
            return fenced(delegate().releaseToEndpoint(claim, endpointOwner));
        }

        private boolean written(Claim claim, TaskStatus status, boolean applied) {
            // a result write is the claim's last: the next claim of the row reads its definition again
            TaskRecord.Definition definition = claimed.remove(claim.token());
            if (applied && status.isTerminal() && definition != null) {
                finished(metrics, definition, status);
            }
            return fenced(applied);
        }

        private boolean fenced(boolean applied) {
            if (!applied) {
                metrics.fenceRefused();
            }
            return applied;
        }

        private List<Boolean> fenced(List<Boolean> applied) {
            for (boolean one : applied) {
                fenced(one);
            }
            return applied;
        }
    }
}
