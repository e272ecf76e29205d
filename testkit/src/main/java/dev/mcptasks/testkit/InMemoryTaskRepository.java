package dev.mcptasks.testkit;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.LeaseMath;
import dev.mcptasks.domain.PendingAnswers;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.ports.repository.WorkerRecord;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A thread-safe, in-memory {@link dev.mcptasks.ports.repository.TaskRepository} that follows the port's semantics
 * exactly (it passes the same {@code TaskRepositoryContract} as the SQL stores), for tests of code built on the port.
 */
public final class InMemoryTaskRepository implements CloseableTaskRepository {
    private final InMemoryStore store;
    private final InMemoryClaims claims;
    private final InMemoryOutbox outbox;
    private final InMemoryQueries queries;
    private final WorkArrivals arrivals = new WorkArrivals();
    private final InMemoryRetentionStore retention;

    public InMemoryTaskRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        this.store = new InMemoryStore(clock, ids, hook);
        this.claims = new InMemoryClaims(store);
        this.outbox = new InMemoryOutbox(store);
        this.queries = new InMemoryQueries(store);
        this.retention = new InMemoryRetentionStore(store);
    }

    /** The claim history of this repository's rows; it goes with each row. */
    public TaskHistory history() {
        return id -> {
            synchronized (store.lock) {
                TaskRow row = store.rows.get(id);
                return row == null ? List.of() : row.history;
            }
        };
    }

    /** Retention of this repository's finished rows. */
    public InMemoryRetentionStore retention() {
        return retention;
    }

    public InMemoryTaskRepository(Clock clock, IdGenerator ids) {
        this(clock, ids, FencedWriteHook.NONE);
    }

    @Override
    public TaskRecord create(NewTask task) {
        TaskRecord created = createRow(task);
        if (task.claim() == null) {
            arrivals.signal(); // a row created claimed is no work for any scan: its worker already holds it
        }
        return created;
    }

    @Override
    public CancelRequestOutcome requestCancel(TaskId id) {
        CancelRequestOutcome outcome = requestCancelOfRow(id);
        if (outcome == CancelRequestOutcome.REQUESTED) {
            arrivals.signal();
        }
        return outcome;
    }

    @Override
    public AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        AnswerOutcome outcome = answerInputOfRow(id, key, responseJson);
        if (outcome == AnswerOutcome.ACCEPTED) {
            arrivals.signal();
        }
        return outcome;
    }

    @Override
    public <T> T inOneTransaction(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        return store.inOneTransaction(work);
    }

    @Override
    public WorkSubscription onWorkArrival(Runnable listener) {
        return arrivals.subscribe(listener);
    }

    private TaskRecord createRow(NewTask task) {
        Objects.requireNonNull(task, "task");
        synchronized (store.lock) {
            if (store.rows.containsKey(task.id())) {
                throw new DuplicateTaskException("task id " + task.id() + " is already used", null);
            }
            TaskRow row = new TaskRow(task, store.now());
            store.insert(row);
            return row.toRecord();
        }
    }

    private CancelRequestOutcome requestCancelOfRow(TaskId id) {
        synchronized (store.lock) {
            TaskRow row = store.rows.get(id);
            if (row == null) {
                return CancelRequestOutcome.NOT_FOUND;
            }
            if (row.status.isTerminal()) {
                return CancelRequestOutcome.ALREADY_TERMINAL;
            }
            Instant now = store.now();
            if (row.awaitsSubmit() && row.submitAttemptedAt == null) {
                // nothing was ever sent (or an input round's answer was not sent yet), so no remote task exists
                StoredSnapshot cancelled = StoredSnapshot.cancelled(null);
                row.storeSnapshot(cancelled, now);
                row.inputResponsesJson = null;
                row.requestState = null;
                row.cancelRequestedAt = now;
                row.nextControlAt = null;
                row.clearLease();
                row.recordEvent(AttentionEvent.forSnapshot(row.id, row.definition.serverName(),
                        row.definition.toolName(), cancelled).orElseThrow(), now);
                return CancelRequestOutcome.CANCELLED_LOCALLY;
            }
            if (row.cancelRequestedAt != null) {
                return CancelRequestOutcome.ALREADY_REQUESTED;
            }
            row.cancelRequestedAt = now;
            row.nextControlAt = now;
            // a poll in flight is superseded at once; a submit lease stays so the remote id can still be stored
            if (row.leasePhase == ClaimPhase.POLL) {
                row.clearLease();
            }
            return CancelRequestOutcome.REQUESTED;
        }
    }

    private AnswerOutcome answerInputOfRow(TaskId id, String key, String responseJson) {
        Object answer = PendingAnswers.parseAnswer(key, responseJson);
        synchronized (store.lock) {
            TaskRow row = store.rows.get(id);
            if (row == null) {
                return AnswerOutcome.NOT_FOUND;
            }
            if (row.status != TaskStatus.INPUT_REQUIRED) {
                return AnswerOutcome.NOT_WAITING;
            }
            Optional<String> answers = PendingAnswers.withAnswer(row.inputResponsesJson, key, answer);
            if (answers.isEmpty()) {
                return AnswerOutcome.DUPLICATE;
            }
            Instant now = store.now();
            row.inputResponsesJson = answers.get();
            row.nextControlAt = now;
            row.updatedAt = now;
            return AnswerOutcome.ACCEPTED;
        }
    }

    @Override
    public List<ClaimedTask> claimControl(ControlClaimRequest request) {
        return claims.claim(request);
    }

    @Override
    public boolean renew(Claim claim, Duration lease) {
        Objects.requireNonNull(lease, "lease");
        return store.fenced(FencedWrite.RENEW, claim.taskId(),
                (row, now) -> row.holdsLive(claim, now) && pollNotSuperseded(row, claim),
                (row, now) -> row.leaseExpiresAt =
                        InMemoryStore.millis(LeaseMath.renewedExpiry(row.leaseExpiresAt, now, lease)));
    }

    @Override
    public boolean recordSubmitAttempt(Claim claim) {
        return store.fenced(FencedWrite.RECORD_SUBMIT_ATTEMPT, claim.taskId(),
                (row, now) -> claim.phase() == ClaimPhase.SUBMIT && row.holdsLive(claim, now)
                        && row.awaitsSubmit() && row.cancelRequestedAt == null,
                (row, now) -> row.submitAttemptedAt = now);
    }

    @Override
    public boolean recordProgress(Claim claim, String statusMessage) {
        Objects.requireNonNull(statusMessage, "statusMessage");
        String message = SnapshotNormalizer.cap(statusMessage, SnapshotNormalizer.MAX_ERROR_CHARS);
        return store.fenced(FencedWrite.RECORD_PROGRESS, claim.taskId(), (row, now) -> row.holdsLive(claim, now),
                (row, now) -> {
                    row.statusMessage = message;
                    row.updatedAt = now;
                });
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        Objects.requireNonNull(write, "write");
        return store.fenced(FencedWrite.APPLY_SUBMITTED, claim.taskId(),
                (row, now) -> claim.phase() == ClaimPhase.SUBMIT && row.holdsLive(claim, now)
                        && row.awaitsSubmit(),
                (row, now) -> {
                    boolean created = write.remoteTaskId() != null;
                    if (created) {
                        InMemoryStore.RemoteKey key =
                                new InMemoryStore.RemoteKey(row.definition.serverName(), write.remoteTaskId());
                        TaskId holder = store.remoteIds.get(key);
                        if (holder != null && !holder.equals(row.id)) {
                            throw new DuplicateTaskException("server " + key.serverName() + " already has a task"
                                    + " with remote id " + key.remoteTaskId() + " (task " + holder + ")", null);
                        }
                        store.remoteIds.put(key, row.id);
                    }
                    row.remoteTaskId = write.remoteTaskId();
                    row.storeSnapshot(write.snapshot(), now);
                    row.remoteTtlMs = write.remoteTtlMs();
                    row.protocolVersion = write.protocolVersion();
                    row.endpointOwner = write.endpointOwner();
                    row.endpointSession = write.endpointSession();
                    row.createdBy = created ? claim.owner() : null;
                    // the answers went out with this create request; the server's state of the call is the write's
                    row.inputResponsesJson = null;
                    row.requestState = write.requestState();
                    boolean inputRound = row.awaitsInputBeforeTask();
                    if (inputRound) {
                        // the create request's outcome is known (nothing was created): sending it again is no duplicate
                        row.submitAttemptedAt = null;
                    }
                    // a cancel requested while the create request was in flight must not wait for the first poll
                    boolean cancelWaiting = row.cancelRequestedAt != null && !row.status.isTerminal();
                    row.nextControlAt = cancelWaiting ? now
                            : inputRound ? null : InMemoryStore.millis(write.nextControlAt());
                    row.consecutiveErrorCount = 0;
                    row.recordEvent(write.event(), write.take(), now);
                    row.clearLease();
                });
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        Objects.requireNonNull(write, "write");
        return store.fenced(FencedWrite.APPLY_OUTCOME, claim.taskId(),
                (row, now) -> row.holdsLive(claim, now) && pollNotSuperseded(row, claim)
                        && (claim.phase() != ClaimPhase.SUBMIT || row.awaitsSubmit()),
                (row, now) -> {
                    row.storeSnapshot(write.snapshot(), now);
                    if (write.remoteTtlMs() != null) {
                        row.remoteTtlMs = write.remoteTtlMs();
                    }
                    row.nextControlAt = InMemoryStore.millis(write.nextControlAt());
                    if (row.status.isTerminal()) {
                        // nothing can deliver them any more
                        row.inputResponsesJson = null;
                        row.requestState = null;
                    } else if (write.deliveredInputResponsesJson() != null && row.inputResponsesJson != null) {
                        if (write.deliveredInputResponsesJson().equals(row.inputResponsesJson)) {
                            row.inputResponsesJson = null;
                        } else {
                            // answers arrived while this claim delivered older ones: due now to deliver them too
                            row.nextControlAt = now;
                        }
                    }
                    if (claim.phase() == ClaimPhase.POLL) {
                        row.lastPolledAt = now;
                    }
                    row.consecutiveErrorCount = 0;
                    if (claim.phase() == ClaimPhase.CANCEL) {
                        row.lastCancelError = null;
                    } else {
                        row.lastPollError = null;
                    }
                    row.recordEvent(write.event(), write.take(), now);
                    row.clearLease();
                });
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        Objects.requireNonNull(write, "write");
        String error = SnapshotNormalizer.cap(write.error(), SnapshotNormalizer.MAX_ERROR_CHARS);
        return store.fenced(FencedWrite.RELEASE_FAILURE, claim.taskId(), (row, now) -> row.holds(claim),
                (row, now) -> {
                    row.nextControlAt = InMemoryStore.millis(write.nextControlAt());
                    if (claim.phase() == ClaimPhase.CANCEL) {
                        row.lastCancelError = error;
                    } else {
                        row.lastPollError = error;
                    }
                    row.consecutiveErrorCount++;
                    row.updatedAt = InMemoryStore.millis(write.failedAt());
                    if (write.clearSubmitAttempt()) {
                        row.submitAttemptedAt = null;
                    }
                    row.recordEvent(write.degradedEvent(), now);
                    row.clearLease();
                });
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return store.fenced(FencedWrite.RELEASE_CANCELLED, claim.taskId(), (row, now) -> row.holds(claim),
                (row, now) -> row.clearLease());
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(nextControlAt, "nextControlAt");
        String error = SnapshotNormalizer.cap(reason, SnapshotNormalizer.MAX_ERROR_CHARS);
        return store.fenced(FencedWrite.ABANDON_CANCEL, claim.taskId(),
                (row, now) -> claim.phase() == ClaimPhase.CANCEL && row.holdsLive(claim, now),
                (row, now) -> {
                    row.lastCancelError = error;
                    row.cancelRequestedAt = null;
                    row.nextControlAt = InMemoryStore.millis(nextControlAt);
                    row.updatedAt = now;
                    row.clearLease();
                });
    }

    @Override
    public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        Objects.requireNonNull(endpointOwner, "endpointOwner");
        return store.fenced(FencedWrite.RELEASE_TO_ENDPOINT, claim.taskId(), (row, now) -> row.holds(claim),
                (row, now) -> {
                    row.endpointOwner = endpointOwner;
                    row.clearLease();
                });
    }

    /** Poll results and poll renewals lose to a cancel request: the row has moved to the cancel phase. */
    private static boolean pollNotSuperseded(TaskRow row, Claim claim) {
        return claim.phase() != ClaimPhase.POLL || row.cancelRequestedAt == null;
    }

    @Override
    public List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return outbox.claim(request, false);
    }

    @Override
    public List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return outbox.claim(request, true);
    }

    @Override
    public boolean markDispatched(NotificationClaim claim) {
        return outbox.markDispatched(claim);
    }

    @Override
    public boolean finishNotification(NotificationClaim claim) {
        return outbox.finish(claim);
    }

    @Override
    public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return outbox.retry(claim, error, nextAt, counted);
    }

    @Override
    public boolean deadLetterNotification(NotificationClaim claim, String error) {
        return outbox.deadLetter(claim, error);
    }

    @Override
    public boolean releaseNotification(NotificationClaim claim) {
        return outbox.release(claim);
    }

    @Override
    public List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        return outbox.listDeadLetters(query);
    }

    @Override
    public ReplayOutcome replayDeadLetter(TaskId id) {
        ReplayOutcome outcome = outbox.replay(id);
        if (outcome == ReplayOutcome.REPLAYED) {
            arrivals.signal();
        }
        return outcome;
    }

    @Override
    public Optional<TaskRecord> find(TaskId id) {
        return queries.find(id);
    }

    @Override
    public List<TaskRecord> list(TaskQuery query) {
        return queries.list(query);
    }

    @Override
    public Map<TaskStatus, Long> countByStatus() {
        return queries.countByStatus();
    }

    @Override
    public dev.mcptasks.ports.repository.TaskFigures figures() {
        return queries.figures();
    }

    @Override
    public void heartbeat(WorkerInfo worker) {
        queries.heartbeat(worker);
    }

    @Override
    public void removeWorker(WorkerId worker) {
        queries.removeWorker(worker);
    }

    @Override
    public boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return queries.isWorkerAlive(worker, staleAfter);
    }

    @Override
    public List<WorkerRecord> workers() {
        return queries.workers();
    }

    /**
     * Makes every stored heartbeat {@code by} older, as if that much time had passed on the store's clock alone (the
     * contract suite's way to age heartbeats on stores whose clock a test cannot move).
     */
    void ageWorkerHeartbeats(Duration by) {
        queries.ageWorkerHeartbeats(by);
    }

    /** Nothing to release: the data lives as long as this object. */
    @Override
    public void close() {}
}
