package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.adapters.sqlite.SqlParams.NewRow;
import dev.mcptasks.adapters.sqlite.SqlParams.SnapshotValues;
import dev.mcptasks.adapters.sqlite.SqlParams.TaskFilter;
import dev.mcptasks.adapters.sqlite.SqlParams.WorkerValues;
import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.PendingAnswers;
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
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.FailureWrite;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/** The {@link dev.mcptasks.ports.repository.TaskRepository} on one SQLite database file. */
final class SqliteTaskRepository implements CloseableTaskRepository {
    private final SqliteDatabase database;
    private final Clock clock;
    private final ClaimScans claims;
    private final FencedWrites fenced;
    private final BatchedWrites batched;
    private final WorkArrivals arrivals;
    private final SqliteCredentialStore credentials;
    private final SqliteRetentionStore retention;
    private final SqliteAuditLog audit;
    private final SqliteFrontSessionStore frontSessions;
    private final SqliteTaskHistory history;

    SqliteTaskRepository(SqliteDatabase database, Clock clock, IdGenerator ids, FencedWriteHook hook) {
        this.database = database;
        this.clock = clock;
        this.claims = new ClaimScans(database, clock, ids);
        this.fenced = new FencedWrites(database, clock, hook);
        this.batched = new BatchedWrites(database, clock, hook);
        this.arrivals = new WorkArrivals(database::openReadConnection, database.path(), database::writeActivity);
        database.onForeignCommit(arrivals::foreignCommitSeen);
        arrivals.checkEchoesWith(database::checkForeignCommits);
        this.credentials = new SqliteCredentialStore(database, clock);
        this.retention = new SqliteRetentionStore(database);
        this.audit = new SqliteAuditLog(database, clock);
        this.frontSessions = new SqliteFrontSessionStore(database);
        this.history = new SqliteTaskHistory(database);
    }

    /** The credential store on this repository's database, on its pools: closing the repository closes it too. */
    SqliteCredentialStore credentials() {
        return credentials;
    }

    /** Retention of finished tasks on this repository's database and pools. */
    SqliteRetentionStore retention() {
        return retention;
    }

    /** The database's connection pools, by name. */
    java.util.Map<String, javax.sql.DataSource> pools() {
        return database.namedPools();
    }

    /** The audit log on this repository's database and pools. */
    SqliteAuditLog audit() {
        return audit;
    }

    /** The claim history on this repository's database and pools. */
    SqliteTaskHistory history() {
        return history;
    }

    /** The gateway's front sessions on this repository's database and pools. */
    SqliteFrontSessionStore frontSessions() {
        return frontSessions;
    }

    @Override
    public TaskRecord create(NewTask task) {
        long now = clock.now().toEpochMilli();
        CreateClaim claim = task.claim();
        TaskRecord created = database.write("create task " + task.id().value(), session -> {
            // a claim the create took is the row's first claim, kept on the row for the history (V013)
            session.mapper().insertTask(NewRow.of(task, now));
            return session.row(task.id().value()).toRecord();
        });
        if (claim == null) {
            // a row created claimed is no work for any scan of this process: its worker already holds it
            database.afterCommit(arrivals::signal);
        }
        return created;
    }

    @Override
    public <T> T inOneTransaction(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        return database.inOneTransaction(work);
    }

    @Override
    public WorkSubscription onWorkArrival(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        return arrivals.subscribe(listener);
    }

    @Override
    public WorkSubscription onForeignChange(TaskChangeListener listener) {
        return arrivals.subscribeChanges(listener);
    }

    /** Decided inside one {@code BEGIN IMMEDIATE} transaction, so the read and the update see the same row. */
    @Override
    public CancelRequestOutcome requestCancel(TaskId id) {
        CancelRequestOutcome outcome = database.write("cancel request for task " + id.value(), session -> {
            TaskMapper mapper = session.mapper();
            TaskRow row = session.row(id.value());
            if (row == null) {
                return CancelRequestOutcome.NOT_FOUND;
            }
            TaskRecord task = row.toRecord();
            long now = clock.now().toEpochMilli();
            if (task.status().isTerminal()) {
                return CancelRequestOutcome.ALREADY_TERMINAL;
            }
            boolean awaitsSubmit = task.status() == TaskStatus.PENDING || task.state().awaitsInputBeforeTask();
            if (awaitsSubmit && task.control().submitAttemptedAt() == null) {
                // nothing was ever sent (or an input round's answers were not sent yet): no remote task exists
                StoredSnapshot cancelled = StoredSnapshot.cancelled(null);
                AttentionEvent event = AttentionEvent.forSnapshot(id, task.definition().serverName(),
                        task.definition().toolName(), cancelled).orElse(null);
                SnapshotValues values = FencedWrites.snapshot(cancelled, null, null, null, null, null, null, event,
                        null, now);
                requireOneRow(mapper.cancelLocally(id.value(), now, values), id);
                return CancelRequestOutcome.CANCELLED_LOCALLY;
            }
            if (task.control().cancelRequestedAt() != null) {
                return CancelRequestOutcome.ALREADY_REQUESTED;
            }
            requireOneRow(mapper.markCancelRequested(id.value(), now), id);
            return CancelRequestOutcome.REQUESTED;
        });
        // a local cancellation leaves a notification to deliver: work for the outbox
        if (outcome == CancelRequestOutcome.REQUESTED || outcome == CancelRequestOutcome.CANCELLED_LOCALLY) {
            database.afterCommit(arrivals::signal);
        }
        return outcome;
    }

    /**
     * Read, merge and write inside one {@code BEGIN IMMEDIATE} transaction: no other answer or claim write can come
     * between, so concurrent answers to different keys are all kept.
     */
    @Override
    public AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        Object answer = PendingAnswers.parseAnswer(key, responseJson);
        String operation = "answer to input request '" + key + "' of task " + id.value();
        AnswerOutcome outcome = database.write(operation, session -> {
            TaskMapper mapper = session.mapper();
            TaskRow row = session.row(id.value());
            if (row == null) {
                return AnswerOutcome.NOT_FOUND;
            }
            TaskRecord task = row.toRecord();
            if (task.status() != TaskStatus.INPUT_REQUIRED) {
                return AnswerOutcome.NOT_WAITING;
            }
            String previous = task.state().inputResponsesJson();
            Optional<String> answers = PendingAnswers.withAnswer(previous, key, answer);
            if (answers.isEmpty()) {
                return AnswerOutcome.DUPLICATE;
            }
            int updated = mapper.storeAnswers(id.value(), clock.now().toEpochMilli(), previous, answers.get());
            if (updated != 1) {
                throw new IllegalStateException("answer to task " + id.value() + " changed " + updated
                        + " rows inside its own transaction");
            }
            return AnswerOutcome.ACCEPTED;
        });
        if (outcome == AnswerOutcome.ACCEPTED) {
            database.afterCommit(arrivals::signal);
        }
        return outcome;
    }

    @Override
    public List<ClaimedTask> claimControl(ControlClaimRequest request) {
        return claims.claimControl(request);
    }

    @Override
    public boolean renew(Claim claim, Duration lease) {
        // a single write is a batch of one: the same statement, prepared once, bound by hand (see BatchedWrites)
        return renewAll(List.of(claim), lease).get(0);
    }

    @Override
    public boolean recordSubmitAttempt(Claim claim) {
        return batched.recordSubmitAttempts(List.of(claim)).get(0);
    }

    @Override
    public boolean recordProgress(Claim claim, String statusMessage) {
        Objects.requireNonNull(statusMessage, "statusMessage");
        return fenced.recordProgress(claim, statusMessage);
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        return batched.applySubmittedAll(List.of(new ClaimedWrite<>(claim, write))).get(0);
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return batched.applyOutcomes(List.of(new ClaimedWrite<>(claim, write))).get(0);
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return fenced.releaseAfterFailure(claim, write);
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return fenced.releaseCancelled(claim);
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        java.util.Objects.requireNonNull(reason, "reason");
        java.util.Objects.requireNonNull(nextControlAt, "nextControlAt");
        return fenced.abandonCancel(claim, reason, nextControlAt);
    }

    @Override
    public boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        Objects.requireNonNull(endpointOwner, "endpointOwner");
        return fenced.releaseToEndpoint(claim, endpointOwner);
    }

    @Override
    public List<Boolean> renewAll(List<Claim> claims, Duration lease) {
        Objects.requireNonNull(lease, "lease");
        return batched.renewAll(claims, lease);
    }

    @Override
    public List<Boolean> recordSubmitAttempts(List<Claim> claims) {
        return batched.recordSubmitAttempts(claims);
    }

    @Override
    public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        return batched.applySubmittedAll(writes);
    }

    @Override
    public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        return batched.applyOutcomes(writes);
    }

    @Override
    public List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
        return batched.markAllDispatched(claims);
    }

    @Override
    public List<Boolean> finishNotifications(List<NotificationClaim> claims) {
        return batched.finishNotifications(claims);
    }

    @Override
    public List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return claims.claimNotifications(request, false);
    }

    @Override
    public List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return claims.claimNotifications(request, true);
    }

    @Override
    public boolean markDispatched(NotificationClaim claim) {
        return batched.markAllDispatched(List.of(claim)).get(0);
    }

    @Override
    public boolean finishNotification(NotificationClaim claim) {
        return batched.finishNotifications(List.of(claim)).get(0);
    }

    @Override
    public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return fenced.retryNotification(claim, error, nextAt, counted);
    }

    @Override
    public boolean deadLetterNotification(NotificationClaim claim, String error) {
        return fenced.deadLetterNotification(claim, error);
    }

    @Override
    public boolean releaseNotification(NotificationClaim claim) {
        return fenced.releaseNotification(claim);
    }

    @Override
    public List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        DeadLetterQuery.Cursor before = query.before();
        return database.read("list dead letters", mapper -> mapper.listDeadLetters(
                before == null ? null : before.deadLetteredAt().toEpochMilli(),
                before == null ? null : before.id().value(), query.limit()).stream().map(TaskRow::toRecord).toList());
    }

    @Override
    public ReplayOutcome replayDeadLetter(TaskId id) {
        Objects.requireNonNull(id, "id");
        ReplayOutcome outcome = database.write("replay of the dead letter of task " + id.value(), session -> {
            if (session.mapper().replayDeadLetter(id.value(), clock.now().toEpochMilli()) == 1) {
                return ReplayOutcome.REPLAYED;
            }
            // inside BEGIN IMMEDIATE: the row cannot appear or change between the update and this read
            return session.row(id.value()) == null ? ReplayOutcome.NOT_FOUND : ReplayOutcome.NOT_DEAD;
        });
        if (outcome == ReplayOutcome.REPLAYED) {
            database.afterCommit(arrivals::signal);
        }
        return outcome;
    }

    @Override
    public Optional<TaskRecord> find(TaskId id) {
        // the hot read of a gateway's waiters: on a statement prepared once per reader connection, mapped by hand
        return Optional.ofNullable(database.readTask(id.value())).map(TaskRow::toRecord);
    }

    @Override
    public List<TaskRecord> findAll(Collection<TaskId> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return database.readTasks(ids.stream().map(TaskId::value).distinct().toList()).stream()
                .map(TaskRow::toRecord).toList();
    }

    @Override
    public List<TaskRecord> list(TaskQuery query) {
        TaskFilter filter = new TaskFilter(query.status() == null ? null : query.status().wireName(),
                query.serverName(), query.before() == null ? null : query.before().value(), query.limit(),
                query.principal());
        return database.read("list tasks",
                mapper -> mapper.listTasks(filter).stream().map(TaskRow::toRecord).toList());
    }

    @Override
    public Map<TaskStatus, Long> countByStatus() {
        return database.read("count tasks", mapper -> {
            Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
            for (TaskStatus status : TaskStatus.values()) {
                counts.put(status, 0L);
            }
            for (Map<String, Object> row : mapper.countByStatus()) {
                counts.put(TaskStatus.fromWire((String) row.get("status")), ((Number) row.get("n")).longValue());
            }
            return counts;
        });
    }

    @Override
    public dev.mcptasks.ports.repository.TaskFigures figures() {
        return database.read("read task figures", FigureRows::read);
    }

    @Override
    public void heartbeat(WorkerInfo worker) {
        database.write("heartbeat of worker " + worker.id().value(), session -> session.mapper().upsertWorker(
                new WorkerValues(worker.id().value(), worker.host(), worker.pid(),
                        worker.startedAt().toEpochMilli())));
    }

    @Override
    public void removeWorker(WorkerId worker) {
        database.write("remove worker " + worker.value(), session -> session.mapper().deleteWorker(worker.value()));
    }

    @Override
    public boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        Objects.requireNonNull(worker, "worker");
        long staleAfterMillis = staleAfter.toMillis();
        return database.read("liveness of worker " + worker.value(),
                mapper -> mapper.isWorkerAlive(worker.value(), staleAfterMillis));
    }

    @Override
    public List<WorkerRecord> workers() {
        return database.read("list workers", mapper -> mapper.selectWorkers().stream()
                .map(row -> new WorkerRecord(WorkerId.of((String) row.get("id")), (String) row.get("host"),
                        ((Number) row.get("pid")).longValue(), millis(row.get("started_at")),
                        millis(row.get("last_seen_at"))))
                .toList());
    }

    @Override
    public void close() {
        arrivals.close();
        database.close();
    }

    private static Instant millis(Object value) {
        return Instant.ofEpochMilli(((Number) value).longValue());
    }

    /** Inside BEGIN IMMEDIATE nothing can change the row between the read and the update. */
    private static void requireOneRow(int updated, TaskId id) {
        if (updated != 1) {
            throw new IllegalStateException("cancel request for task " + id.value()
                    + " changed " + updated + " rows inside its own transaction");
        }
    }
}
