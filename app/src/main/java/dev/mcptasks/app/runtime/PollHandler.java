package dev.mcptasks.app.runtime;

import dev.mcptasks.app.service.TaskDriverRegistry;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;

/**
 * The poll phase: reads the remote task (with its result when terminal) and stores what it reports. A task the
 * server does not know goes to {@link LostTaskVerdict}; a malformed answer is terminal; any other failure is a failure
 * release with backoff and degradation tracking.
 */
final class PollHandler implements PhaseHandler {
    private final TaskRepository repository;
    private final TaskDriverRegistry drivers;
    private final Transitions transitions;
    private final LostTaskVerdict lost;

    PollHandler(TaskRepository repository, TaskDriverRegistry drivers, Transitions transitions, LostTaskVerdict lost) {
        this.repository = repository;
        this.drivers = drivers;
        this.transitions = transitions;
        this.lost = lost;
    }

    @Override
    public ClaimPhase phase() {
        return ClaimPhase.POLL;
    }

    @Override
    public void run(ClaimContext context) {
        TaskRecord row = context.claimed().task();
        if (row.state().remoteTaskId() == null) {
            Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.PROTOCOL_ERROR,
                    "the task is " + row.status().wireName() + " but has no remote task id"), repository, transitions);
            return;
        }
        TaskDriver driver = Handlers.driver(drivers, context, row, repository, transitions, true);
        if (driver == null) {
            return;
        }
        RemoteTaskRef ref = Handlers.ref(row);
        context.call(permit -> driver.status(ref, permit), (snapshot, error) -> settle(context, row, snapshot, error));
    }

    private void settle(ClaimContext context, TaskRecord row, RemoteTaskSnapshot snapshot, Throwable error) {
        Instant completedAt = context.now();
        if (error == null) {
            Handlers.finishObserved(context, row, snapshot, completedAt, repository, transitions);
            return;
        }
        RemoteFailure failure = Transitions.classify(error);
        String message = Transitions.describe(error);
        switch (failure) {
            case TASK_LOST -> lost.settle(context, row, "the server no longer knows the task: " + message);
            case PROTOCOL -> Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.PROTOCOL_ERROR,
                    "malformed status response: " + message), repository, transitions);
            default -> Handlers.finishFailure(context, repository,
                    transitions.failure(row, message, completedAt, false, true));
        }
    }
}
