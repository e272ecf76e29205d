package dev.mcptasks.core.runtime;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.InputRound;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * The submit phase: persists the attempt, then sends the create request. A row whose earlier attempt may have been
 * sent follows the server's submit policy: at most once fails it with {@code submit_outcome_unknown}, at least once
 * sends again. A refusal is terminal; a failure before sending is retried; any other failure keeps the attempt
 * marker, so the policy decides the next time. A 2026-07-28 server may instead answer at once without a task, or ask
 * for input before creating one (an input round): the row then waits for the user's answers, and the create request
 * is sent again with them (the store cleared the attempt marker: that request's outcome is known).
 *
 * <p>A tool run as a direct call holds this claim until its result. A user's cancel request reaches it through
 * {@link DirectCallCancels}: the call is cancelled locally and the task ends {@code cancelled} under this claim; a
 * call that returned first keeps its result. A create of a task is never cancelled so: the server may have made the
 * task, which the cancel phase then cancels remotely once its id is stored.
 */
final class SubmitHandler implements PhaseHandler {
    static final String CANCELLED_IN_FLIGHT = "cancelled while its direct tool call was in flight: the call was"
            + " stopped and the server was sent notifications/cancelled for it";

    private final WorkerId worker;
    private final TaskRepository repository;
    private final ResultWrites results;
    private final TaskDriverRegistry drivers;
    private final ServerDirectory servers;
    private final Transitions transitions;
    private final DirectCallCancels directCalls;
    private final Clock clock;
    private final Executor executor;
    /** Told of each direct call's progress as it arrives (this process's gateway relays it live). */
    private final BiConsumer<TaskId, CallProgress> liveProgress;

    SubmitHandler(WorkerId worker, TaskRepository repository, ResultWrites results, TaskDriverRegistry drivers,
            ServerDirectory servers, Transitions transitions, DirectCallCancels directCalls, Clock clock,
            Executor executor, BiConsumer<TaskId, CallProgress> liveProgress) {
        this.liveProgress = liveProgress;
        this.worker = worker;
        this.repository = repository;
        this.results = results;
        this.drivers = drivers;
        this.servers = servers;
        this.transitions = transitions;
        this.directCalls = directCalls;
        this.clock = clock;
        this.executor = executor;
    }

    @Override
    public ClaimPhase phase() {
        return ClaimPhase.SUBMIT;
    }

    @Override
    public void run(ClaimContext context) {
        TaskRecord row = context.claimed().task();
        Optional<ServerProfile> profile = servers.find(row.definition().serverName());
        if (profile.isEmpty()) {
            Handlers.finishFailure(context, repository, transitions.failure(row, "server '"
                    + row.definition().serverName() + "' is not configured", context.now(), false, false));
            return;
        }
        // a claim taken by the row's own create recorded the attempt itself: no earlier worker sent anything
        boolean attemptRecorded = context.claimed().attemptRecorded();
        if (!attemptRecorded && row.control().submitAttemptedAt() != null
                && profile.get().submitPolicy() == SubmitPolicy.AT_MOST_ONCE) {
            Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN,
                    "a create request was sent at " + row.control().submitAttemptedAt() + " by a worker that did"
                            + " not record its outcome; the server may have created the task (submitPolicy"
                            + " atMostOnce never sends twice)"), results, transitions);
            return;
        }
        TaskDriver driver = Handlers.driver(drivers, context, row, repository, transitions, false);
        if (driver == null) {
            return;
        }
        // an input round before any task sends the create request again, with the user's answers and the server's
        // opaque state; the store made the row claimable for submit only once answers were pending
        InputRound round = row.state().awaitsInputBeforeTask()
                ? new InputRound(row.state().requestState(), row.state().inputResponsesJson()) : null;
        SubmitCall call = new SubmitCall(row.id(), row.definition().serverName(), row.definition().toolName(),
                row.definition().argumentsJson(), row.definition().requestedTtlMs(), round);
        DirectCallObserver direct = new DirectCallObserver(row.id(), context, directCalls, new ProgressThrottle(clock,
                executor, message -> context.sideWrite(
                        () -> repository.recordProgress(context.claimed().claim(), message))), liveProgress);
        Runnable send = () -> context.call(permit -> driver.submit(call, permit, direct),
                (result, error) -> settle(context, row, profile.get().submitPolicy(), direct, result, error));
        if (attemptRecorded) {
            send.run();
            return;
        }
        // the create is sent only once the attempt record committed (a worker that dies after sending is detected)
        context.writeThen(BatchedWrites.RECORD_SUBMIT_ATTEMPT, context.claimed().claim(), send);
    }

    private void settle(ClaimContext context, TaskRecord row, SubmitPolicy policy, DirectCallObserver direct,
            SubmitResult result, Throwable error) {
        direct.ended();
        if (error != null && direct.cancelledByUser(error)) {
            // the call was stopped for the user (notifications/cancelled went out for its request) before it
            // returned: a direct call leaves no remote task, so nothing else is left to cancel. A call that returned
            // first came here with its result instead, which wins
            Handlers.finishTerminal(context, row, StoredSnapshot.cancelled(CANCELLED_IN_FLIGHT), results,
                    transitions);
            return;
        }
        Instant completedAt = context.now();
        if (error == null) {
            SubmitWrite write = submitted(row, result, completedAt);
            OutcomeWrite duplicate = transitions.terminal(row, StoredSnapshot.failed(ErrorCodes.PROTOCOL_ERROR,
                    "the server returned remote task id '" + result.snapshot().remoteTaskId() + "', which another"
                            + " task already has"));
            context.finish(FencedWrite.APPLY_SUBMITTED, () -> applySubmitted(context, write, duplicate));
            return;
        }
        String message = Transitions.describe(error);
        RemoteFailure failure = Transitions.classify(error);
        if (failure == RemoteFailure.REFUSED) {
            Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.SUBMIT_REFUSED, message),
                    results, transitions);
            return;
        }
        if (failure == RemoteFailure.AUTH_REQUIRED) {
            // refused before anything ran, and no policy can help until someone logs in: ends here, never resent
            Handlers.finishAuthRequired(context, row, message, results, transitions);
            return;
        }
        if (failure == RemoteFailure.TIMED_OUT && policy == SubmitPolicy.AT_MOST_ONCE) {
            // sent, unanswered within its bound, maybe run: never sent twice, and the bound is the known cause.
            // Under atLeastOnce it falls through: kept, the attempt marker set, and sent again after backoff
            Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.TIMEOUT, message
                    + " (submitPolicy atMostOnce never sends twice)"), results, transitions);
            return;
        }
        boolean nothingSent = failure == RemoteFailure.NOT_SENT;
        Handlers.finishFailure(context, repository,
                transitions.failure(row, "submit failed: " + message, completedAt, nothingSent, false));
    }

    /**
     * The three answers of a create request. A created task is polled from its next due time. A call that finished
     * at once is terminal: nothing to poll. An input round stores the server's requests and state and is due never:
     * {@code answerInput} makes it due (for submit) once the user answers. Neither of the last two has a remote task,
     * so no endpoint owner: nothing lives in this worker's endpoint.
     */
    private SubmitWrite submitted(TaskRecord row, SubmitResult result, Instant completedAt) {
        StoredSnapshot snapshot = transitions.normalize(result.snapshot());
        AttentionEvent event = transitions.event(row, snapshot);
        DeliveryTake take = transitions.take(row, event);
        if (result.createdTask()) {
            return new SubmitWrite(result.snapshot().remoteTaskId(), snapshot, result.snapshot().remoteTtlMs(),
                    result.protocolVersion(), result.processLocal() ? worker : null,
                    transitions.nextDue(snapshot, result.snapshot().pollAfter(), completedAt), event, null,
                    result.endpointSession(), take);
        }
        return new SubmitWrite(null, snapshot, null, result.protocolVersion(), null, null, event,
                result.requestState(), null, take);
    }

    /** The last write of a created task; retried as a whole when the store throws (both writes are fenced). */
    private boolean applySubmitted(ClaimContext context, SubmitWrite write, OutcomeWrite duplicate) {
        try {
            return results.applySubmitted(context.claimed().claim(), write);
        } catch (DuplicateTaskException e) {
            // still under the same claim: the server reused a remote id another task already holds
            return results.applyOutcome(context.claimed().claim(), duplicate);
        }
    }
}
