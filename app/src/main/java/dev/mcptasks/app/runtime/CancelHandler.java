package dev.mcptasks.app.runtime;

import dev.mcptasks.app.service.TaskDriverRegistry;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;

/**
 * The cancel phase: asks the server to cancel and stores what it then reports (cancelled, or the terminal status it
 * reached first). A row that never learned its remote id ends cancelled locally; a task the server does not know
 * goes to {@link LostTaskVerdict}; any other failure is retried with backoff, without limit.
 */
final class CancelHandler implements PhaseHandler {
    static final String CANCELLED_WITHOUT_REMOTE_ID = "cancelled before the remote task id was known: the create"
            + " request may have reached the server, which then runs the tool without being tracked";

    private final TaskRepository repository;
    private final TaskDriverRegistry drivers;
    private final Transitions transitions;
    private final LostTaskVerdict lost;

    CancelHandler(TaskRepository repository, TaskDriverRegistry drivers, Transitions transitions,
            LostTaskVerdict lost) {
        this.repository = repository;
        this.drivers = drivers;
        this.transitions = transitions;
        this.lost = lost;
    }

    @Override
    public ClaimPhase phase() {
        return ClaimPhase.CANCEL;
    }

    @Override
    public void run(ClaimContext context) {
        TaskRecord row = context.claimed().task();
        if (row.state().remoteTaskId() == null) {
            Handlers.finishTerminal(context, row, StoredSnapshot.cancelled(CANCELLED_WITHOUT_REMOTE_ID), repository,
                    transitions);
            return;
        }
        TaskDriver driver = Handlers.driver(drivers, context, row, repository, transitions, false);
        if (driver == null) {
            return;
        }
        RemoteTaskRef ref = Handlers.ref(row);
        context.call(() -> driver.cancel(ref), (snapshot, error) -> settle(context, row, snapshot, error));
    }

    private void settle(ClaimContext context, TaskRecord row, RemoteTaskSnapshot snapshot, Throwable error) {
        Instant completedAt = context.now();
        if (error == null) {
            // a nonterminal answer (cancellation in progress) stays in the cancel phase, due at the next poll time
            Handlers.finishObserved(context, row, snapshot, completedAt, repository, transitions);
            return;
        }
        String message = Transitions.describe(error);
        if (Transitions.classify(error) == RemoteFailure.TASK_LOST) {
            lost.settle(context, row, "the server no longer knows the task it was asked to cancel: " + message);
            return;
        }
        context.finish(FencedWrite.RELEASE_FAILURE, () -> repository.releaseAfterFailure(context.claimed().claim(),
                transitions.failure(row, "cancel failed: " + message, completedAt, false, false)));
    }
}
