package dev.mcptasks.core.service;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerRecord;
import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceAttributes;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The application's entry points for callers (CLI, API): they only persist intent; the workers' control loops make
 * every remote call. Submitting writes a pending row; cancelling records the request.
 */
public final class TaskService {
    private final TaskRepository repository;
    private final ServerDirectory servers;
    private final IdGenerator ids;
    private final AuditTrail audit;
    private final Tracing tracing;
    private volatile SubmitClaims submitClaims = SubmitClaims.NONE;
    /**
     * Where this process's readers hear of the changes this service makes without a worker (empty: nobody); shared
     * with the services {@link #withAudit} derives, whenever they were derived.
     */
    private AtomicReference<TaskChanges> changes = new AtomicReference<>();

    /** A service that audits nothing (the bench, embeddings without an audit log). */
    public TaskService(TaskRepository repository, ServerDirectory servers, IdGenerator ids) {
        this(repository, servers, ids, AuditTrail.NONE);
    }

    /**
     * @param audit where every submit, cancel request and answer is recorded, with its outcome. A submit's record is
     *     written in the create's own transaction where the store can group writes (one commit on a gateway call's
     *     path instead of two, and no task without its record); cancel requests and answers are recorded right
     *     after their own write, which decides the outcome the record names
     */
    public TaskService(TaskRepository repository, ServerDirectory servers, IdGenerator ids, AuditTrail audit) {
        this(repository, servers, ids, audit, Tracing.NONE);
    }

    /**
     * @param tracing where the submit span goes; its context is stored with the task, so the workers that drive the
     *     task continue its trace
     */
    public TaskService(TaskRepository repository, ServerDirectory servers, IdGenerator ids, AuditTrail audit,
            Tracing tracing) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.repository = Objects.requireNonNull(repository, "repository");
        this.servers = Objects.requireNonNull(servers, "servers");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /**
     * From now on, a change this service makes to what a reader sees of a task without a worker (a pending task
     * cancelled locally) is announced to {@code changes}, so a reader of this process waiting on the task hears of it
     * at once, as it hears of the worker's commits; other processes hear of it through the store.
     */
    public void announceChangesTo(TaskChanges changes) {
        this.changes.set(Objects.requireNonNull(changes, "changes"));
    }

    /** Persists a pending task for a configured server with the server's default ttl. */
    public TaskRecord submit(String serverName, String toolName, String argumentsJson) {
        return submit(serverName, toolName, argumentsJson, null);
    }

    /**
     * Persists a pending task; the first tick of any worker creates it remotely.
     *
     * @param ttlMs the ttl to request, or null for the server's configured default
     * @throws UnknownServerException when the server is not configured
     * @throws DomainException when the tool name, arguments or ttl are invalid
     */
    public TaskRecord submit(String serverName, String toolName, String argumentsJson, Long ttlMs) {
        return submitFor(null, serverName, toolName, argumentsJson, ttlMs);
    }

    /**
     * Persists a pending task on behalf of a gateway principal: only that principal sees it through the
     * {@code *For} methods below.
     *
     * @param principal the submitting principal, or null for a task of no principal (CLI, Java API)
     */
    public TaskRecord submitFor(String principal, String serverName, String toolName, String argumentsJson,
            Long ttlMs) {
        return submitFor(principal, serverName, toolName, argumentsJson, ttlMs, null);
    }

    /**
     * {@link #submitFor} continuing a caller's trace: the submit span is a child of {@code parent} (a new root trace
     * when null), and its context is stored with the task, so every worker that drives the task continues it. With
     * tracing off the stored context is {@code parent} itself.
     *
     * @param parent the trace context the request came with (a gateway request's {@code traceparent}), or null
     */
    public TaskRecord submitFor(String principal, String serverName, String toolName, String argumentsJson,
            Long ttlMs, TraceContext parent) {
        TraceSpan span = tracing.start("submit", SpanRole.PRODUCER, parent)
                .attribute(TraceAttributes.SERVER, serverName).attribute(TraceAttributes.TOOL, toolName);
        try {
            ServerProfile profile = servers.find(serverName)
                    .orElseThrow(() -> new UnknownServerException("server '" + serverName + "' is not configured"));
            Long ttl = ttlMs != null ? ttlMs : profile.defaultTtlMs();
            NewTask task = new NewTask(ids.newTaskId(), profile.name(), toolName, argumentsJson, profile.driver(),
                    ttl, principal, span.context());
            span.attribute(TraceAttributes.TASK_ID, task.id().value());
            return createAudited(task, () -> audit.record(principal, AuditAction.SUBMIT, task.id(),
                    profile.name() + "/" + toolName));
        } catch (RuntimeException | Error e) {
            span.error(e);
            throw e;
        } finally {
            span.end();
        }
    }

    /**
     * From now on, tasks submitted here are created already claimed for submit by {@code claims}' worker when it
     * has a free slot, and sent by it at once ({@link SubmitClaims}); the others stay pending for any worker.
     */
    public void claimSubmitsWith(SubmitClaims claims) {
        this.submitClaims = Objects.requireNonNull(claims, "claims");
    }

    /**
     * Creates the row, claimed for this process's worker when it has a free slot (then in that worker's group
     * commit, beside its other writes), and hands the committed row to that worker; a create that fails gives the
     * reserved slot back.
     */
    private TaskRecord createAudited(NewTask task, Runnable record) {
        Optional<SubmitClaims.Reservation> reservation = submitClaims.reserve(task.principal());
        TaskRecord created;
        try {
            created = reservation.isEmpty() ? createAndRecord(task, record)
                    : reservation.get().commit(task.id(),
                            () -> createAndRecord(task.claimedBy(reservation.get().claim()), record));
        } catch (RuntimeException | Error e) {
            reservation.ifPresent(SubmitClaims.Reservation::abandoned);
            throw e;
        }
        reservation.ifPresent(r -> r.created(created));
        return created;
    }

    /**
     * Creates the row and writes its audit record in one store transaction; the work-arrival signal goes out at that
     * commit. A store that cannot group writes (a test fake) creates, then records.
     */
    private TaskRecord createAndRecord(NewTask task, Runnable record) {
        if (audit.log() == AuditLog.NONE) {
            return repository.create(task);
        }
        AtomicBoolean ran = new AtomicBoolean();
        try {
            return repository.inOneTransaction(() -> {
                ran.set(true);
                TaskRecord created = repository.create(task);
                record.run();
                return created;
            });
        } catch (UnsupportedOperationException cannotGroup) {
            if (ran.get()) {
                throw cannotGroup;
            }
            TaskRecord created = repository.create(task);
            record.run();
            return created;
        }
    }

    /**
     * The task when it belongs to {@code principal}. Another principal's task and a task that does not exist look
     * the same (empty), so a task id tells a caller nothing about tasks that are not theirs.
     */
    public Optional<TaskRecord> findFor(String principal, TaskId id) {
        Objects.requireNonNull(principal, "principal");
        return find(id).filter(task -> belongsTo(task, principal));
    }

    /** True when {@code task} is {@code principal}'s: what {@link #findFor} shows a principal. */
    public static boolean belongsTo(TaskRecord task, String principal) {
        return principal.equals(task.definition().principal());
    }

    /** {@link #requestCancel} for the task's own principal; {@code NOT_FOUND} for anyone else's task. */
    public CancelRequestOutcome requestCancelFor(String principal, TaskId id) {
        if (findFor(principal, id).isEmpty()) {
            audit.record(principal, AuditAction.CANCEL_REQUEST, id, detail(CancelRequestOutcome.NOT_FOUND));
            return CancelRequestOutcome.NOT_FOUND;
        }
        return requestCancel(principal, id);
    }

    /** {@link #answer} for the task's own principal; {@code NOT_FOUND} for anyone else's task. */
    public AnswerOutcome answerFor(String principal, TaskId id, String key, String responseJson) {
        if (findFor(principal, id).isEmpty()) {
            audit.record(principal, AuditAction.ANSWER_INPUT, id, key + ": " + detail(AnswerOutcome.NOT_FOUND));
            return AnswerOutcome.NOT_FOUND;
        }
        return answer(principal, id, key, responseJson);
    }

    /** A page of {@code principal}'s tasks, newest first ({@code query}'s own principal is replaced). */
    public List<TaskRecord> listFor(String principal, TaskQuery query) {
        Objects.requireNonNull(principal, "principal");
        return list(new TaskQuery(query.status(), query.serverName(), query.limit(), query.before(), principal));
    }

    /** Records a cancel request (or cancels a never-sent task locally); a repeat changes nothing. */
    public CancelRequestOutcome requestCancel(TaskId id) {
        return requestCancel(null, id);
    }

    private CancelRequestOutcome requestCancel(String principal, TaskId id) {
        Objects.requireNonNull(id, "id");
        CancelRequestOutcome outcome = repository.requestCancel(id);
        TaskChanges told = changes.get();
        if (outcome == CancelRequestOutcome.CANCELLED_LOCALLY && told != null) {
            // the status changed with no worker's commit to announce it (a request only marks the row for a worker)
            told.announce(id);
        }
        audit.record(principal, AuditAction.CANCEL_REQUEST, id, detail(outcome));
        return outcome;
    }

    /**
     * Stores a user's answer to one input request of a task in {@code input_required}; the worker that serves the
     * task delivers it ({@code tasks/update}, or the create request again for an input round before any task).
     *
     * @param key the key of one of the task's pending input requests (a key of its {@code inputRequired} object)
     * @param responseJson the bare answer, a JSON object (for an elicitation
     *     {@code {"action":"accept","content":{...}}})
     * @return {@link AnswerOutcome#ACCEPTED}; {@link AnswerOutcome#DUPLICATE} when an answer to the key is already
     *     waiting (the first one stands); {@link AnswerOutcome#NOT_FOUND} when there is no such task;
     *     {@link AnswerOutcome#NOT_WAITING} when the task stopped waiting between the check and the write
     * @throws AnswerRejectedException when the task does not wait for input, its generation cannot take answers from
     *     mcp-tasks, the key is not pending, or the answer is not a JSON object
     */
    public AnswerOutcome answer(TaskId id, String key, String responseJson) {
        return answer(null, id, key, responseJson);
    }

    private AnswerOutcome answer(String principal, TaskId id, String key, String responseJson) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
        String answer = InputRequests.answer(responseJson);
        Optional<TaskRecord> found = repository.find(id);
        if (found.isEmpty()) {
            audit.record(principal, AuditAction.ANSWER_INPUT, id, key + ": " + detail(AnswerOutcome.NOT_FOUND));
            return AnswerOutcome.NOT_FOUND;
        }
        TaskRecord task = found.get();
        try {
            InputRequests.check(task, key);
        } catch (AnswerRejectedException e) {
            audit.record(principal, AuditAction.ANSWER_INPUT, id, key + ": rejected");
            throw e;
        }
        AnswerOutcome outcome = repository.answerInput(id, key, answer);
        audit.record(principal, AuditAction.ANSWER_INPUT, id, key + ": " + detail(outcome));
        return outcome;
    }

    /**
     * This service acting through another audit trail: the admin listener records each operator's actions under
     * that operator and its own channel, over the same store.
     */
    public TaskService withAudit(AuditTrail trail) {
        TaskService acting = new TaskService(repository, servers, ids, trail);
        acting.changes = changes; // before the service is handed out: the constructor's thread publishes it
        return acting;
    }

    /**
     * Makes a task's dead letter deliverable again, due now (the store's {@code replayDeadLetter}), and records it as
     * an operator action.
     */
    public ReplayOutcome replayDeadLetter(TaskId id) {
        Objects.requireNonNull(id, "id");
        ReplayOutcome outcome = repository.find(id).isEmpty() ? ReplayOutcome.NOT_FOUND
                : repository.replayDeadLetter(id);
        audit.record(null, AuditAction.OPERATOR, id, "replay dead letter: " + detail(outcome));
        return outcome;
    }

    /** A page of dead letters, newest first. */
    public List<TaskRecord> deadLetters(DeadLetterQuery query) {
        return repository.listDeadLetters(Objects.requireNonNull(query, "query"));
    }

    /** The audit trail of this service, for the operator actions the service does not make itself (a purge). */
    public AuditTrail auditTrail() {
        return audit;
    }

    private static String detail(Enum<?> outcome) {
        return outcome.name().toLowerCase(java.util.Locale.ROOT);
    }

    public Optional<TaskRecord> find(TaskId id) {
        return repository.find(Objects.requireNonNull(id, "id"));
    }

    /** The tasks of {@code ids} that exist, by id, read at once (see {@code TaskRecords#findAll}). */
    public Map<TaskId, TaskRecord> findAll(Collection<TaskId> ids) {
        Map<TaskId, TaskRecord> found = new HashMap<>();
        repository.findAll(Objects.requireNonNull(ids, "ids")).forEach(task -> found.put(task.id(), task));
        return found;
    }

    public List<TaskRecord> list(TaskQuery query) {
        return repository.list(Objects.requireNonNull(query, "query"));
    }

    public Map<TaskStatus, Long> counts() {
        return repository.countByStatus();
    }

    public List<WorkerRecord> workers() {
        return repository.workers();
    }

    /** Whether the worker heartbeated within {@code staleAfter}, judged by the store's clock (not the caller's). */
    public boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return repository.isWorkerAlive(worker, staleAfter);
    }
}
