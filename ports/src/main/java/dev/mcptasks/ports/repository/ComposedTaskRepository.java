package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A {@link TaskRepository} assembled from one implementation per role: every call, batched forms included, goes to
 * the role that declares it in {@link #roles()}. A decorator implements only the role it changes and is put in place
 * with {@code with*}:
 *
 * <pre>{@code
 * TaskRepository metered = ComposedTaskRepository.of(store)
 *         .withClaims(claims -> new MeteringClaims(claims, metrics, clock));
 * }</pre>
 *
 * <p>A decorator that keeps a name of its own (a fault injector with its controls) implements this interface and
 * returns the roles it is built from; it overrides no call, so every call still reaches exactly one role.
 */
public interface ComposedTaskRepository extends TaskRepository {

    /** The roles every call goes to. */
    Roles roles();

    /** One implementation per role; itself the repository they make up. */
    record Roles(TaskRecords tasks, TaskClaims claims, NotificationOutbox outbox, WorkerRegistry registry,
            StoreScope scope) implements ComposedTaskRepository {
        public Roles {
            Objects.requireNonNull(tasks, "tasks");
            Objects.requireNonNull(claims, "claims");
            Objects.requireNonNull(outbox, "outbox");
            Objects.requireNonNull(registry, "registry");
            Objects.requireNonNull(scope, "scope");
        }

        @Override
        public Roles roles() {
            return this;
        }
    }

    /** A repository whose every role is {@code whole} (the roles of a composed one, taken over as they are). */
    static Roles of(TaskRepository whole) {
        if (whole instanceof ComposedTaskRepository composed) {
            return composed.roles();
        }
        return new Roles(whole, whole, whole, whole, whole);
    }

    /** A repository built role by role. */
    static Roles of(TaskRecords tasks, TaskClaims claims, NotificationOutbox outbox, WorkerRegistry registry,
            StoreScope scope) {
        return new Roles(tasks, claims, outbox, registry, scope);
    }

    /** The same roles, with the task records replaced by {@code wrap} of them. */
    default Roles withTasks(UnaryOperator<TaskRecords> wrap) {
        Roles roles = roles();
        return new Roles(wrap.apply(roles.tasks()), roles.claims(), roles.outbox(), roles.registry(), roles.scope());
    }

    /** The same roles, with the claims replaced by {@code wrap} of them. */
    default Roles withClaims(UnaryOperator<TaskClaims> wrap) {
        Roles roles = roles();
        return new Roles(roles.tasks(), wrap.apply(roles.claims()), roles.outbox(), roles.registry(), roles.scope());
    }

    /** The same roles, with the outbox replaced by {@code wrap} of it. */
    default Roles withOutbox(UnaryOperator<NotificationOutbox> wrap) {
        Roles roles = roles();
        return new Roles(roles.tasks(), roles.claims(), wrap.apply(roles.outbox()), roles.registry(), roles.scope());
    }

    /** The same roles, with the worker registry replaced by {@code wrap} of it. */
    default Roles withWorkerRegistry(UnaryOperator<WorkerRegistry> wrap) {
        Roles roles = roles();
        return new Roles(roles.tasks(), roles.claims(), roles.outbox(), wrap.apply(roles.registry()), roles.scope());
    }

    /** The same roles, with the store scope replaced by {@code wrap} of it. */
    default Roles withStoreScope(UnaryOperator<StoreScope> wrap) {
        Roles roles = roles();
        return new Roles(roles.tasks(), roles.claims(), roles.outbox(), roles.registry(), wrap.apply(roles.scope()));
    }

    // ---- TaskRecords ---------------------------------------------------------------------------------------------

    @Override
    default TaskRecord create(NewTask task) {
        return roles().tasks().create(task);
    }

    @Override
    default CancelRequestOutcome requestCancel(TaskId id) {
        return roles().tasks().requestCancel(id);
    }

    @Override
    default AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        return roles().tasks().answerInput(id, key, responseJson);
    }

    @Override
    default Optional<TaskRecord> find(TaskId id) {
        return roles().tasks().find(id);
    }

    @Override
    default List<TaskRecord> findAll(Collection<TaskId> ids) {
        return roles().tasks().findAll(ids);
    }

    @Override
    default List<TaskRecord> list(TaskQuery query) {
        return roles().tasks().list(query);
    }

    @Override
    default Map<TaskStatus, Long> countByStatus() {
        return roles().tasks().countByStatus();
    }

    @Override
    default TaskFigures figures() {
        return roles().tasks().figures();
    }

    // ---- TaskClaims ----------------------------------------------------------------------------------------------

    @Override
    default List<ClaimedTask> claimControl(ControlClaimRequest request) {
        return roles().claims().claimControl(request);
    }

    @Override
    default boolean renew(Claim claim, Duration lease) {
        return roles().claims().renew(claim, lease);
    }

    @Override
    default boolean recordSubmitAttempt(Claim claim) {
        return roles().claims().recordSubmitAttempt(claim);
    }

    @Override
    default boolean applySubmitted(Claim claim, SubmitWrite write) {
        return roles().claims().applySubmitted(claim, write);
    }

    @Override
    default boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return roles().claims().applyOutcome(claim, write);
    }

    @Override
    default boolean recordProgress(Claim claim, String statusMessage) {
        return roles().claims().recordProgress(claim, statusMessage);
    }

    @Override
    default boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return roles().claims().releaseAfterFailure(claim, write);
    }

    @Override
    default boolean releaseCancelled(Claim claim) {
        return roles().claims().releaseCancelled(claim);
    }

    @Override
    default boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        return roles().claims().abandonCancel(claim, reason, nextControlAt);
    }

    @Override
    default boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return roles().claims().releaseToEndpoint(claim, endpointOwner);
    }

    @Override
    default List<Boolean> renewAll(List<Claim> claimList, Duration lease) {
        return roles().claims().renewAll(claimList, lease);
    }

    @Override
    default List<Boolean> recordSubmitAttempts(List<Claim> claimList) {
        return roles().claims().recordSubmitAttempts(claimList);
    }

    @Override
    default List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        return roles().claims().applySubmittedAll(writes);
    }

    @Override
    default List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        return roles().claims().applyOutcomes(writes);
    }

    // ---- NotificationOutbox --------------------------------------------------------------------------------------

    @Override
    default List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        return roles().outbox().claimNotifications(request);
    }

    @Override
    default boolean markDispatched(NotificationClaim claim) {
        return roles().outbox().markDispatched(claim);
    }

    @Override
    default List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        return roles().outbox().claimNotificationsDispatched(request);
    }

    @Override
    default boolean finishNotification(NotificationClaim claim) {
        return roles().outbox().finishNotification(claim);
    }

    @Override
    default boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return roles().outbox().retryNotification(claim, error, nextAt, counted);
    }

    @Override
    default boolean deadLetterNotification(NotificationClaim claim, String error) {
        return roles().outbox().deadLetterNotification(claim, error);
    }

    @Override
    default boolean releaseNotification(NotificationClaim claim) {
        return roles().outbox().releaseNotification(claim);
    }

    @Override
    default List<TaskRecord> listDeadLetters(DeadLetterQuery query) {
        return roles().outbox().listDeadLetters(query);
    }

    @Override
    default ReplayOutcome replayDeadLetter(TaskId id) {
        return roles().outbox().replayDeadLetter(id);
    }

    @Override
    default List<Boolean> markAllDispatched(List<NotificationClaim> deliveries) {
        return roles().outbox().markAllDispatched(deliveries);
    }

    @Override
    default List<Boolean> finishNotifications(List<NotificationClaim> deliveries) {
        return roles().outbox().finishNotifications(deliveries);
    }

    // ---- WorkerRegistry ------------------------------------------------------------------------------------------

    @Override
    default void heartbeat(WorkerInfo worker) {
        roles().registry().heartbeat(worker);
    }

    @Override
    default boolean isWorkerAlive(WorkerId worker, Duration staleAfter) {
        return roles().registry().isWorkerAlive(worker, staleAfter);
    }

    @Override
    default void removeWorker(WorkerId worker) {
        roles().registry().removeWorker(worker);
    }

    @Override
    default List<WorkerRecord> workers() {
        return roles().registry().workers();
    }

    // ---- StoreScope ----------------------------------------------------------------------------------------------

    @Override
    default <T> T inOneTransaction(Supplier<T> work) {
        return roles().scope().inOneTransaction(work);
    }

    @Override
    default WorkSubscription onWorkArrival(Runnable listener) {
        return roles().scope().onWorkArrival(listener);
    }

    @Override
    default WorkSubscription onForeignChange(TaskChangeListener listener) {
        return roles().scope().onForeignChange(listener);
    }
}
