package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A {@link TaskRepository} assembled from one implementation per role: every call, batched forms included, goes to
 * the role that declares it. A decorator implements only the role it changes and is put in place with
 * {@code with*}:
 *
 * <pre>{@code
 * TaskRepository metered = ComposedTaskRepository.of(store)
 *         .withClaims(claims -> new MeteringClaims(claims, metrics, clock));
 * }</pre>
 *
 * <p>The forwarding methods are final, so a subclass (a decorator that keeps a name of its own, such as a fault
 * injector with its controls) can only choose the roles it is built from, never change a call on the way.
 */
public class ComposedTaskRepository implements TaskRepository {
    private final TaskRecords tasks;
    private final TaskClaims claims;
    private final NotificationOutbox outbox;
    private final WorkerRegistry registry;
    private final StoreScope store;

    /** The given roles (a store built role by role). */
    protected ComposedTaskRepository(TaskRecords tasks, TaskClaims claims, NotificationOutbox outbox,
            WorkerRegistry registry, StoreScope store) {
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.claims = Objects.requireNonNull(claims, "claims");
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The roles of {@code roles} (a subclass that wraps some of them on the way up). */
    protected ComposedTaskRepository(ComposedTaskRepository roles) {
        this(roles.tasks, roles.claims, roles.outbox, roles.registry, roles.store);
    }

    /** A repository whose every role is {@code whole} (the roles of a composed one, taken over as they are). */
    public static ComposedTaskRepository of(TaskRepository whole) {
        if (whole instanceof ComposedTaskRepository composed) {
            return new ComposedTaskRepository(composed);
        }
        return new ComposedTaskRepository(whole, whole, whole, whole, whole);
    }

    /** A repository built role by role. */
    public static ComposedTaskRepository of(TaskRecords tasks, TaskClaims claims, NotificationOutbox outbox,
            WorkerRegistry registry, StoreScope store) {
        return new ComposedTaskRepository(tasks, claims, outbox, registry, store);
    }

    /** The same roles, with the task records replaced by {@code wrap} of them. */
    public final ComposedTaskRepository withTasks(UnaryOperator<TaskRecords> wrap) {
        return new ComposedTaskRepository(wrap.apply(tasks), claims, outbox, registry, store);
    }

    /** The same roles, with the claims replaced by {@code wrap} of them. */
    public final ComposedTaskRepository withClaims(UnaryOperator<TaskClaims> wrap) {
        return new ComposedTaskRepository(tasks, wrap.apply(claims), outbox, registry, store);
    }

    /** The same roles, with the outbox replaced by {@code wrap} of it. */
    public final ComposedTaskRepository withOutbox(UnaryOperator<NotificationOutbox> wrap) {
        return new ComposedTaskRepository(tasks, claims, wrap.apply(outbox), registry, store);
    }

    /** The same roles, with the worker registry replaced by {@code wrap} of it. */
    public final ComposedTaskRepository withWorkerRegistry(UnaryOperator<WorkerRegistry> wrap) {
        return new ComposedTaskRepository(tasks, claims, outbox, wrap.apply(registry), store);
    }

    /** The same roles, with the store scope replaced by {@code wrap} of it. */
    public final ComposedTaskRepository withStoreScope(UnaryOperator<StoreScope> wrap) {
        return new ComposedTaskRepository(tasks, claims, outbox, registry, wrap.apply(store));
    }

    // ---- TaskRecords ---------------------------------------------------------------------------------------------

    @Override
    public final TaskRecord create(NewTask task) {
        return tasks.create(task);
    }

    @Override
    public final CancelRequestOutcome requestCancel(TaskId id) {
        return tasks.requestCancel(id);
    }

    @Override
    public final AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        return tasks.answerInput(id, key, responseJson);
    }

    @Override
    public final Optional<TaskRecord> find(TaskId id) {
        return tasks.find(id);
    }

    @Override
    public final List<TaskRecord> list(TaskQuery query) {
        return tasks.list(query);
    }

    @Override
    public final Map<TaskStatus, Long> countByStatus() {
        return tasks.countByStatus();
    }

    @Override
    public final TaskFigures figures() {
        return tasks.figures();
    }

    // ---- TaskClaims ----------------------------------------------------------------------------------------------

    @Override
    public final List<ClaimedTask> claimControl(ControlClaimRequest request) {
        return claims.claimControl(request);
    }

    @Override
    public final boolean renew(Claim claim, Duration lease) {
        return claims.renew(claim, lease);
    }

    @Override
    public final boolean recordSubmitAttempt(Claim claim) {
        return claims.recordSubmitAttempt(claim);
    }

    @Override
    public final boolean applySubmitted(Claim claim, SubmitWrite write) {
        return claims.applySubmitted(claim, write);
    }

    @Override
    public final boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return claims.applyOutcome(claim, write);
    }

    @Override
    public final boolean recordProgress(Claim claim, String statusMessage) {
        return claims.recordProgress(claim, statusMessage);
    }

    @Override
    public final boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return claims.releaseAfterFailure(claim, write);
    }

    @Override
    public final boolean releaseCancelled(Claim claim) {
        return claims.releaseCancelled(claim);
    }

    @Override
    public final boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        return claims.abandonCancel(claim, reason, nextControlAt);
    }

    @Override
    public final boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return claims.releaseToEndpoint(claim, endpointOwner);
    }

    @Override
    public final List<Boolean> renewAll(List<Claim> claimList, Duration lease) {
        return claims.renewAll(claimList, lease);
    }

    @Override
    public final List<Boolean> recordSubmitAttempts(List<Claim> claimList) {
        return claims.recordSubmitAttempts(claimList);
    }

    @Override
    public final List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        return claims.applySubmittedAll(writes);
    }

    @Override
    public final List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        return claims.applyOutcomes(writes);
    }

    // ---- NotificationOutbox --------------------------------------------------------------------------------------

    @Override
    public final List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return outbox.claimNotifications(request);
    }

    @Override
    public final boolean markDispatched(NotificationClaim claim) {
        return outbox.markDispatched(claim);
    }

    @Override
    public final List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return outbox.claimNotificationsDispatched(request);
    }

    @Override
    public final boolean finishNotification(NotificationClaim claim) {
        return outbox.finishNotification(claim);
    }

    @Override
    public final boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return outbox.retryNotification(claim, error, nextAt, counted);
    }

    @Override
    public final boolean deadLetterNotification(NotificationClaim claim, String error) {
        return outbox.deadLetterNotification(claim, error);
    }

    @Override
    public final boolean releaseNotification(NotificationClaim claim) {
        return outbox.releaseNotification(claim);
    }

    @Override
    public final List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        return outbox.listDeadLetters(query);
    }

    @Override
    public final ReplayOutcome replayDeadLetter(TaskId id) {
        return outbox.replayDeadLetter(id);
    }

    @Override
    public final List<Boolean> markAllDispatched(List<NotificationClaim> deliveries) {
        return outbox.markAllDispatched(deliveries);
    }

    @Override
    public final List<Boolean> finishNotifications(List<NotificationClaim> deliveries) {
        return outbox.finishNotifications(deliveries);
    }

    // ---- WorkerRegistry ------------------------------------------------------------------------------------------

    @Override
    public final void heartbeat(WorkerInfo worker) {
        registry.heartbeat(worker);
    }

    @Override
    public final boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return registry.isWorkerAlive(worker, staleAfter);
    }

    @Override
    public final void removeWorker(WorkerId worker) {
        registry.removeWorker(worker);
    }

    @Override
    public final List<WorkerRecord> workers() {
        return registry.workers();
    }

    // ---- StoreScope ----------------------------------------------------------------------------------------------

    @Override
    public final <T> T inOneTransaction(Supplier<T> work) {
        return store.inOneTransaction(work);
    }

    @Override
    public final WorkSubscription onWorkArrival(Runnable listener) {
        return store.onWorkArrival(listener);
    }

    @Override
    public final WorkSubscription onForeignChange(TaskChangeListener listener) {
        return store.onForeignChange(listener);
    }
}
