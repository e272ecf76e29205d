package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A repository that forwards every call to {@link #delegate()}: decorators (fault injection, auditing, crash switches)
 * override only the calls they watch.
 *
 * <p>The batched fenced writes ({@link #renewAll}, {@link #applyOutcomes} and the like) are deliberately <i>not</i>
 * forwarded: their defaults call this decorator's single writes for every element, so a decorator that watches a
 * single write sees every element of a batch too. A decorator that wants a batch to reach its delegate as one
 * statement overrides the batch form as well (and watches its elements there).
 */
public abstract class ForwardingTaskRepository implements TaskRepository {
    /** The repository the next call goes to. */
    protected abstract TaskRepository delegate();

    @Override
    public TaskRecord create(NewTask task) {
        return delegate().create(task);
    }

    @Override
    public CancelRequestOutcome requestCancel(TaskId id) {
        return delegate().requestCancel(id);
    }

    @Override
    public AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        return delegate().answerInput(id, key, responseJson);
    }

    @Override
    public List<ClaimedTask> claimControl(ControlClaimRequest request) {
        return delegate().claimControl(request);
    }

    @Override
    public boolean renew(Claim claim, Duration lease) {
        return delegate().renew(claim, lease);
    }

    @Override
    public boolean recordSubmitAttempt(Claim claim) {
        return delegate().recordSubmitAttempt(claim);
    }

    @Override
    public boolean recordProgress(Claim claim, String statusMessage) {
        return delegate().recordProgress(claim, statusMessage);
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        return delegate().applySubmitted(claim, write);
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return delegate().applyOutcome(claim, write);
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return delegate().releaseAfterFailure(claim, write);
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return delegate().releaseCancelled(claim);
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, java.time.Instant nextControlAt) {
        return delegate().abandonCancel(claim, reason, nextControlAt);
    }

    @Override
    public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return delegate().releaseToEndpoint(claim, endpointOwner);
    }

    @Override
    public List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return delegate().claimNotifications(request);
    }

    @Override
    public List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return delegate().claimNotificationsDispatched(request);
    }

    @Override
    public boolean markDispatched(NotificationClaim claim) {
        return delegate().markDispatched(claim);
    }

    @Override
    public boolean finishNotification(NotificationClaim claim) {
        return delegate().finishNotification(claim);
    }

    @Override
    public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return delegate().retryNotification(claim, error, nextAt, counted);
    }

    @Override
    public boolean deadLetterNotification(NotificationClaim claim, String error) {
        return delegate().deadLetterNotification(claim, error);
    }

    @Override
    public boolean releaseNotification(NotificationClaim claim) {
        return delegate().releaseNotification(claim);
    }

    @Override
    public List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        return delegate().listDeadLetters(query);
    }

    @Override
    public ReplayOutcome replayDeadLetter(TaskId id) {
        return delegate().replayDeadLetter(id);
    }

    @Override
    public Optional<TaskRecord> find(TaskId id) {
        return delegate().find(id);
    }

    @Override
    public List<TaskRecord> list(TaskQuery query) {
        return delegate().list(query);
    }

    @Override
    public Map<TaskStatus, Long> countByStatus() {
        return delegate().countByStatus();
    }

    @Override
    public TaskFigures figures() {
        return delegate().figures();
    }

    @Override
    public void heartbeat(WorkerInfo worker) {
        delegate().heartbeat(worker);
    }

    @Override
    public void removeWorker(WorkerId worker) {
        delegate().removeWorker(worker);
    }

    @Override
    public boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return delegate().isWorkerAlive(worker, staleAfter);
    }

    @Override
    public List<WorkerRecord> workers() {
        return delegate().workers();
    }

    @Override
    public <T> T inOneTransaction(java.util.function.Supplier<T> work) {
        return delegate().inOneTransaction(work);
    }

    @Override
    public WorkSubscription onWorkArrival(Runnable listener) {
        return delegate().onWorkArrival(listener);
    }

    @Override
    public WorkSubscription onForeignChange(TaskChangeListener listener) {
        return delegate().onForeignChange(listener);
    }
}
