package dev.mcptasks.adapters.postgres;

import dev.mcptasks.adapters.postgres.SqlParams.Claims;
import dev.mcptasks.adapters.postgres.SqlParams.Event;
import dev.mcptasks.adapters.postgres.SqlParams.Events;
import dev.mcptasks.adapters.postgres.SqlParams.Fence;
import dev.mcptasks.adapters.postgres.SqlParams.Outcomes;
import dev.mcptasks.adapters.postgres.SqlParams.Snapshot;
import dev.mcptasks.adapters.postgres.SqlParams.Snapshots;
import dev.mcptasks.adapters.postgres.SqlParams.Submits;
import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
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
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/** The PostgreSQL {@code TaskRepository}: control claims, fenced control writes and queries; the outbox is delegated. */
final class PostgresTaskRepository implements CloseableTaskRepository {
    /** The most rows one claim scan takes (one fresh token is issued per possible row). */
    static final int MAX_CLAIM_BATCH = 1000;

    private static final Comparator<TaskRecord> DUE_ORDER = Comparator
            .comparing((TaskRecord task) -> task.control().nextControlAt())
            .thenComparing(TaskRecord::id);

    private final PostgresStore store;
    private final Clock clock;
    private final IdGenerator ids;
    private final FencedWriteHook hook;
    private final PostgresOutbox outbox;
    private final FencedBatch batch;
    private final WorkArrivalListener arrivals;
    /** Other processes' changes to gateway principals' rows (V12's trigger): its connection opens on first use. */
    private final WorkArrivalListener changes;
    private final PostgresCredentialStore credentials;
    private final PostgresRetentionStore retention;
    private final PostgresAuditLog audit;
    private final PostgresFrontSessionStore frontSessions;
    private final PostgresTaskHistory history;

    PostgresTaskRepository(PostgresStore store, WorkArrivalListener arrivals, WorkArrivalListener changes,
            Clock clock, IdGenerator ids, FencedWriteHook hook) {
        this.store = store;
        this.arrivals = arrivals;
        this.changes = changes;
        this.clock = clock;
        this.ids = ids;
        this.hook = hook;
        this.batch = new FencedBatch(store, clock, hook);
        this.outbox = new PostgresOutbox(store, clock, ids, hook, batch);
        this.credentials = new PostgresCredentialStore(store, clock);
        this.retention = new PostgresRetentionStore(store);
        this.audit = new PostgresAuditLog(store, clock);
        this.frontSessions = new PostgresFrontSessionStore(store);
        this.history = new PostgresTaskHistory(store);
    }

    /** The credential store on this repository's database, on its pool: closing the repository closes it too. */
    PostgresCredentialStore credentials() {
        return credentials;
    }

    /** Retention of finished tasks on this repository's database and pool. */
    PostgresRetentionStore retention() {
        return retention;
    }

    /** The store's connection pool, by name. */
    java.util.Map<String, javax.sql.DataSource> pools() {
        return store.pools();
    }

    /** The audit log on this repository's database and pool. */
    PostgresAuditLog audit() {
        return audit;
    }

    /** The claim history on this repository's database and pool. */
    PostgresTaskHistory history() {
        return history;
    }

    /** The gateway's front sessions on this repository's database and pool. */
    PostgresFrontSessionStore frontSessions() {
        return frontSessions;
    }

    @Override
    public TaskRecord create(NewTask task) {
        Objects.requireNonNull(task, "task");
        Instant now = Times.now(clock);
        store.autoCommit("create task " + task.id(), mapper -> mapper.insertTask(task.id().value(),
                task.serverName(), task.toolName(), task.argumentsJson(), task.driver(), task.requestedTtlMs(), now,
                task.principal(), task.trace() == null ? null : task.trace().traceparent(),
                task.trace() == null ? null : task.trace().tracestate(), CreatedLease.of(task.claim(), now)));
        return TaskRows.toRecord(TaskRows.created(task, now));
    }

    @Override
    public CancelRequestOutcome requestCancel(TaskId id) {
        Objects.requireNonNull(id, "id");
        // The row lock orders this against claims and fenced writes, so the decision below sees the final state.
        return store.transaction("request cancel of " + id, mapper -> {
            TaskRow row = mapper.selectTaskForUpdate(id.value());
            if (row == null) {
                return CancelRequestOutcome.NOT_FOUND;
            }
            TaskStatus status = TaskStatus.fromWire(row.status);
            if (status.isTerminal()) {
                return CancelRequestOutcome.ALREADY_TERMINAL;
            }
            Instant now = Times.now(clock);
            boolean awaitsSubmit = status == TaskStatus.PENDING
                    || (status == TaskStatus.INPUT_REQUIRED && row.remoteTaskId == null);
            if (awaitsSubmit && row.submitAttemptedAt == null) {
                // nothing was ever sent (or an input round's answers were not sent yet): no remote task exists
                StoredSnapshot cancelled = StoredSnapshot.cancelled(null);
                AttentionEvent event = AttentionEvent.forSnapshot(id, row.serverName, row.toolName, cancelled)
                        .orElseThrow();
                mapper.cancelLocally(id.value(), now, Snapshot.of(cancelled, now), Event.of(event));
                return CancelRequestOutcome.CANCELLED_LOCALLY;
            }
            if (row.cancelRequestedAt != null) {
                return CancelRequestOutcome.ALREADY_REQUESTED;
            }
            mapper.markCancelRequested(id.value(), now);
            mapper.notifyWork();
            return CancelRequestOutcome.REQUESTED;
        });
    }

    /**
     * Read, merge and write under the row lock: answers to other keys and fenced writes wait for it, so concurrent
     * answers to different keys are all kept and a claim's compare-and-clear sees this answer whole or not at all.
     */
    @Override
    public AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        Objects.requireNonNull(id, "id");
        Object answer = PendingAnswers.parseAnswer(key, responseJson);
        return store.transaction("answer to input request '" + key + "' of " + id, mapper -> {
            TaskRow row = mapper.selectTaskForUpdate(id.value());
            if (row == null) {
                return AnswerOutcome.NOT_FOUND;
            }
            if (TaskStatus.fromWire(row.status) != TaskStatus.INPUT_REQUIRED) {
                return AnswerOutcome.NOT_WAITING;
            }
            Optional<String> answers = PendingAnswers.withAnswer(row.inputResponses, key, answer);
            if (answers.isEmpty()) {
                return AnswerOutcome.DUPLICATE;
            }
            int updated = mapper.storeAnswers(id.value(), Times.now(clock), row.inputResponses, answers.get());
            if (updated != 1) {
                throw new IllegalStateException("answer to task " + id + " changed " + updated
                        + " rows under its own row lock");
            }
            mapper.notifyWork();
            return AnswerOutcome.ACCEPTED;
        });
    }

    @Override
    public List<ClaimedTask> claimControl(ControlClaimRequest request) {
        Objects.requireNonNull(request, "request");
        int limit = Math.min(request.limit(), MAX_CLAIM_BATCH);
        if (limit == 0) {
            return List.of();
        }
        String[] tokens = Times.tokens(ids, limit);
        String[] excluded = request.excluded().stream().map(TaskId::value).toArray(String[]::new);
        Instant now = Times.now(clock);
        Instant expiresAt = Times.millis(now.plus(request.lease()));
        List<TaskRow> rows = store.autoCommit("claim " + request.phase().wireName() + " tasks",
                mapper -> mapper.claimControl(request.phase().wireName(), request.worker().value(), now, expiresAt,
                        request.workerStaleAfter().toMillis(), excluded, request.atShare().toArray(String[]::new),
                        tokens, limit));
        return rows.stream()
                .map(row -> {
                    TaskRecord task = TaskRows.toRecord(row);
                    return new ClaimedTask(new Claim(task.id(), request.phase(), request.worker(),
                            task.lease().token(), task.lease().expiresAt()), task,
                            row.expiredPhase == null ? null : ClaimPhase.fromWire(row.expiredPhase));
                })
                .sorted(Comparator.comparing(ClaimedTask::task, DUE_ORDER))
                .toList();
    }

    @Override
    public boolean renew(Claim claim, Duration lease) {
        Objects.requireNonNull(lease, "lease");
        return fenced(FencedWrite.RENEW, claim, now -> mapper -> mapper.renew(
                renewFence(claim, now), Times.millis(now.plus(lease))));
    }

    @Override
    public boolean recordSubmitAttempt(Claim claim) {
        if (claim.phase() != ClaimPhase.SUBMIT) {
            return false;
        }
        return fenced(FencedWrite.RECORD_SUBMIT_ATTEMPT, claim,
                now -> mapper -> mapper.recordSubmitAttempt(attemptFence(claim, now), now));
    }

    @Override
    public boolean recordProgress(Claim claim, String statusMessage) {
        Objects.requireNonNull(statusMessage, "statusMessage");
        String message = SnapshotNormalizer.cap(statusMessage, SnapshotNormalizer.MAX_ERROR_CHARS);
        return fenced(FencedWrite.RECORD_PROGRESS, claim, now -> mapper -> mapper.recordProgress(
                Fence.live(claim, now, false, false), now, message));
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        Objects.requireNonNull(write, "write");
        if (claim.phase() != ClaimPhase.SUBMIT) {
            return false;
        }
        boolean inputRound = inputRound(write);
        return fenced(FencedWrite.APPLY_SUBMITTED, claim, now -> mapper -> mapper.applySubmitted(
                submittedFence(claim, now), now, write.remoteTaskId(), Snapshot.of(write.snapshot(), now),
                write.remoteTtlMs(), write.protocolVersion(),
                write.endpointOwner() == null ? null : write.endpointOwner().value(),
                Times.millis(write.nextControlAt()), Event.of(write.event(), write.take(), now), inputRound,
                write.requestState(),
                write.endpointSession()));
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        Objects.requireNonNull(write, "write");
        return fenced(FencedWrite.APPLY_OUTCOME, claim, now -> mapper -> mapper.applyOutcome(
                outcomeFence(claim, now), now,
                Snapshot.of(write.snapshot(), now), write.remoteTtlMs(), Times.millis(write.nextControlAt()),
                Event.of(write.event(), write.take(), now), write.deliveredInputResponsesJson()));
    }

    // Batched forms: one statement per batch, each element under the fence (and the flags) of its single write.

    @Override
    public List<Boolean> renewAll(List<Claim> claims, Duration lease) {
        Objects.requireNonNull(lease, "lease");
        return batch.run(FencedWrite.RENEW, taskIds(claims), taskIds(claims), now -> mapper -> mapper.renewAll(
                fences(claims, claim -> renewFence(claim, now)), now, Times.millis(now.plus(lease))));
    }

    @Override
    public List<Boolean> recordSubmitAttempts(List<Claim> claims) {
        List<Claim> submits = claims.stream().filter(claim -> claim.phase() == ClaimPhase.SUBMIT).toList();
        return batch.run(FencedWrite.RECORD_SUBMIT_ATTEMPT, taskIds(claims), taskIds(submits),
                now -> mapper -> mapper.recordSubmitAttempts(fences(submits, claim -> attemptFence(claim, now)), now));
    }

    @Override
    public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        List<ClaimedWrite<SubmitWrite>> submits = writes.stream()
                .filter(write -> write.claim().phase() == ClaimPhase.SUBMIT).toList();
        return batch.run(FencedWrite.APPLY_SUBMITTED, claimedIds(writes), claimedIds(submits), now -> {
            List<SubmitWrite> each = submits.stream().map(ClaimedWrite::write).toList();
            Submits columns = new Submits(
                    SqlParams.column(each, SubmitWrite::remoteTaskId),
                    SqlParams.column(each, write -> SqlParams.number(write.remoteTtlMs())),
                    SqlParams.column(each, SubmitWrite::protocolVersion),
                    SqlParams.column(each, write -> write.endpointOwner() == null ? null
                            : write.endpointOwner().value()),
                    SqlParams.column(each, SubmitWrite::endpointSession),
                    SqlParams.column(each, SubmitWrite::requestState),
                    SqlParams.column(each, write -> Boolean.toString(inputRound(write))),
                    SqlParams.column(each, write -> SqlParams.instant(write.nextControlAt())));
            Snapshots snapshots = Snapshots.of(each.stream().map(write -> Snapshot.of(write.snapshot(), now))
                    .toList());
            Events events = Events.of(each.stream().map(write -> Event.of(write.event(), write.take(), now))
                    .toList());
            Claims fences = fences(claims(submits), claim -> submittedFence(claim, now));
            return mapper -> mapper.applySubmittedAll(fences, columns, snapshots, events, now);
        });
    }

    @Override
    public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        List<Claim> claims = claims(writes);
        return batch.run(FencedWrite.APPLY_OUTCOME, taskIds(claims), taskIds(claims), now -> {
            List<OutcomeWrite> each = writes.stream().map(ClaimedWrite::write).toList();
            Outcomes columns = new Outcomes(
                    SqlParams.column(each, write -> SqlParams.number(write.remoteTtlMs())),
                    SqlParams.column(each, OutcomeWrite::deliveredInputResponsesJson),
                    SqlParams.column(each, write -> SqlParams.instant(write.nextControlAt())));
            Snapshots snapshots = Snapshots.of(each.stream().map(write -> Snapshot.of(write.snapshot(), now))
                    .toList());
            Events events = Events.of(each.stream().map(write -> Event.of(write.event(), write.take(), now))
                    .toList());
            Claims fences = fences(claims, claim -> outcomeFence(claim, now));
            return mapper -> mapper.applyOutcomes(fences, columns, snapshots, events, now);
        });
    }

    // The fence of each fenced write, shared by its single and batched forms.

    private static Fence renewFence(Claim claim, Instant now) {
        return Fence.live(claim, now, false, claim.phase() == ClaimPhase.POLL);
    }

    private static Fence attemptFence(Claim claim, Instant now) {
        return Fence.live(claim, now, true, true);
    }

    private static Fence submittedFence(Claim claim, Instant now) {
        return Fence.live(claim, now, true, false);
    }

    private static Fence outcomeFence(Claim claim, Instant now) {
        return Fence.live(claim, now, claim.phase() == ClaimPhase.SUBMIT, claim.phase() == ClaimPhase.POLL);
    }

    private static Claims fences(List<Claim> claims, Function<Claim, Fence> fence) {
        return Claims.of(claims.stream().map(fence).toList());
    }

    private static boolean inputRound(SubmitWrite write) {
        return write.remoteTaskId() == null && write.snapshot().status() == TaskStatus.INPUT_REQUIRED;
    }

    private static <W> List<Claim> claims(List<ClaimedWrite<W>> writes) {
        return writes.stream().map(ClaimedWrite::claim).toList();
    }

    private static <W> List<TaskId> claimedIds(List<ClaimedWrite<W>> writes) {
        return writes.stream().map(write -> write.claim().taskId()).toList();
    }

    private static List<TaskId> taskIds(List<Claim> claims) {
        return claims.stream().map(Claim::taskId).toList();
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        Objects.requireNonNull(write, "write");
        String error = SnapshotNormalizer.cap(write.error(), SnapshotNormalizer.MAX_ERROR_CHARS);
        return fenced(FencedWrite.RELEASE_FAILURE, claim, now -> mapper -> mapper.releaseAfterFailure(
                Fence.release(claim, now), now, error, Times.millis(write.failedAt()),
                Times.millis(write.nextControlAt()), write.clearSubmitAttempt(), Event.of(write.degradedEvent())));
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return fenced(FencedWrite.RELEASE_CANCELLED, claim,
                now -> mapper -> mapper.releaseCancelled(Fence.release(claim, now)));
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(nextControlAt, "nextControlAt");
        String capped = SnapshotNormalizer.cap(reason, SnapshotNormalizer.MAX_ERROR_CHARS);
        return fenced(FencedWrite.ABANDON_CANCEL, claim, now -> mapper -> mapper.abandonCancel(
                Fence.live(claim, now, false, false), now, capped, Times.millis(nextControlAt)));
    }

    @Override
    public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        Objects.requireNonNull(endpointOwner, "endpointOwner");
        return fenced(FencedWrite.RELEASE_TO_ENDPOINT, claim,
                now -> mapper -> mapper.releaseToEndpoint(Fence.release(claim, now), endpointOwner.value()));
    }

    /**
     * Runs one fenced UPDATE. The hook runs first, before "now" is read and before a connection is borrowed, so a
     * test paused in the hook sees this write judged against the row and the clock as they are when it resumes.
     */
    private boolean fenced(FencedWrite write, Claim claim, Function<Instant, Function<TaskMapper, Integer>> update) {
        Objects.requireNonNull(claim, "claim");
        hook.beforeFencedWrite(write, claim.taskId());
        Instant now = Times.now(clock);
        return store.autoCommit(write.name().toLowerCase(Locale.ROOT) + " of " + claim.taskId(),
                update.apply(now)) == 1;
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
    public List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
        return outbox.markAllDispatched(claims);
    }

    @Override
    public List<Boolean> finishNotifications(List<NotificationClaim> claims) {
        return outbox.finishAll(claims);
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
    public Optional<TaskRecord> find(TaskId id) {
        Objects.requireNonNull(id, "id");
        return Optional.ofNullable(store.autoCommit("find task " + id, mapper -> mapper.selectTask(id.value())))
                .map(TaskRows::toRecord);
    }

    @Override
    public List<TaskRecord> findAll(Collection<TaskId> ids) {
        List<TaskId> distinct = ids.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return List.of();
        }
        if (distinct.size() == 1) {
            // a waiter's sweep of one row (every sequential call through the gateway, twice): the join below is
            // planned again at each execution (its custom plan always looks cheaper than the generic one, which
            // assumes ten ids), some 230 us of the server's CPU; the statement by id runs on its cached plan
            return find(distinct.get(0)).map(List::of).orElse(List.of());
        }
        String[] values = distinct.stream().map(TaskId::value).toArray(String[]::new);
        return store.autoCommit("find " + values.length + " tasks", mapper -> mapper.selectTasks(values)).stream()
                .map(TaskRows::toRecord).toList();
    }

    @Override
    public List<TaskRecord> list(TaskQuery query) {
        Objects.requireNonNull(query, "query");
        return store.autoCommit("list tasks", mapper -> mapper.listTasks(
                        query.status() == null ? null : query.status().wireName(), query.serverName(),
                        query.before() == null ? null : query.before().value(), query.limit(), query.principal()))
                .stream().map(TaskRows::toRecord).toList();
    }

    @Override
    public List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        Objects.requireNonNull(query, "query");
        DeadLetterQuery.Cursor before = query.before();
        return store.autoCommit("list dead letters", mapper -> mapper.listDeadLetters(
                        before == null ? null : before.deadLetteredAt(), before == null ? null : before.id().value(),
                        query.limit()))
                .stream().map(TaskRows::toRecord).toList();
    }

    @Override
    public ReplayOutcome replayDeadLetter(TaskId id) {
        Objects.requireNonNull(id, "id");
        String outcome = store.autoCommit("replay of the dead letter of " + id,
                mapper -> mapper.replayDeadLetter(id.value(), Times.now(clock)));
        // pg_notify returns nothing (the empty text before "replayed"): only the suffix is the outcome
        if (outcome.endsWith("replayed")) {
            return ReplayOutcome.REPLAYED;
        }
        return outcome.equals("not_dead") ? ReplayOutcome.NOT_DEAD : ReplayOutcome.NOT_FOUND;
    }

    @Override
    public Map<TaskStatus, Long> countByStatus() {
        Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
        for (TaskStatus status : TaskStatus.values()) {
            counts.put(status, 0L);
        }
        for (StatusCount row : store.autoCommit("count tasks", TaskMapper::countByStatus)) {
            counts.put(TaskStatus.fromWire(row.status), row.count);
        }
        return counts;
    }

    @Override
    public dev.mcptasks.ports.repository.TaskFigures figures() {
        return store.autoCommit("read task figures", FigureRows::read);
    }

    @Override
    public void heartbeat(WorkerInfo worker) {
        Objects.requireNonNull(worker, "worker");
        store.autoCommit("heartbeat of worker " + worker.id(), mapper -> mapper.upsertWorker(worker.id().value(),
                worker.host(), worker.pid(), Times.millis(worker.startedAt())));
    }

    @Override
    public boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        Objects.requireNonNull(worker, "worker");
        long staleAfterMillis = staleAfter.toMillis();
        return store.autoCommit("liveness of worker " + worker,
                mapper -> mapper.isWorkerAlive(worker.value(), staleAfterMillis));
    }

    @Override
    public void removeWorker(WorkerId worker) {
        Objects.requireNonNull(worker, "worker");
        store.autoCommit("remove worker " + worker, mapper -> mapper.deleteWorker(worker.value()));
    }

    @Override
    public List<WorkerRecord> workers() {
        return store.autoCommit("list workers", TaskMapper::selectWorkers).stream().map(WorkerRow::toRecord)
                .toList();
    }

    @Override
    public <T> T inOneTransaction(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        return store.inOneTransaction(work);
    }

    @Override
    public WorkSubscription onWorkArrival(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        return arrivals.subscribe(listener);
    }

    @Override
    public WorkSubscription onForeignChange(TaskChangeListener listener) {
        Objects.requireNonNull(listener, "listener");
        // this process's own commits come back too: a reader then reads its rows once more, which changes nothing
        return changes.subscribe(listener::changedSomewhere);
    }

    @Override
    public void close() {
        try {
            arrivals.close();
            changes.close();
        } finally {
            store.close();
        }
    }
}
