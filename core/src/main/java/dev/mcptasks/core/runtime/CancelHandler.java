package dev.mcptasks.core.runtime;

import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;

/**
 * The cancel phase: asks the server to cancel and stores what it then reports (cancelled, or the terminal status it
 * reached first). A row without a remote id whose create request may have been sent is never reported cancelled:
 * the server may run it untracked, so it fails with {@code submit_outcome_unknown} (whatever the submit policy: a
 * create is never re-sent for a task the user cancelled); a row whose create was never attempted ends cancelled
 * locally. A task that completed or failed anyway keeps that outcome, with a note in its status message. A task the
 * server does not know goes to {@link LostTaskVerdict}; a server that cannot cancel at all, or that refuses the
 * cancel for want of authorization, sends the row back to polling, so its real end is still stored; any other failure
 * is retried with backoff, without limit.
 */
final class CancelHandler implements PhaseHandler {
    static final String CANCELLED_BEFORE_SUBMIT = "cancelled before the create request was sent";
    static final String CANCELLED_WHILE_INPUT_REQUIRED = "cancelled while the server waited for input, before any"
            + " task was created";
    static final String UNSUPPORTED = "server does not support tasks/cancel";
    static final String AUTH_REFUSED = "server refused the cancel for want of authorization";

    private final TaskRepository repository;
    private final ResultWrites results;
    private final TaskDriverRegistry drivers;
    private final Transitions transitions;
    private final LostTaskVerdict lost;

    CancelHandler(TaskRepository repository, ResultWrites results, TaskDriverRegistry drivers,
            Transitions transitions, LostTaskVerdict lost) {
        this.repository = repository;
        this.results = results;
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
            if (row.control().submitAttemptedAt() == null) {
                // an input round whose create request returned (its outcome is known: no task) ends here too
                Handlers.finishTerminal(context, row, StoredSnapshot.cancelled(row.state().awaitsInputBeforeTask()
                        ? CANCELLED_WHILE_INPUT_REQUIRED : CANCELLED_BEFORE_SUBMIT), results, transitions);
            } else {
                Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN,
                        "cancel requested at " + row.control().cancelRequestedAt() + ", but a create request sent at "
                                + row.control().submitAttemptedAt() + " never had its outcome recorded: the server"
                                + " may have created the task and may run it; it was not cancelled remotely"),
                        results, transitions);
            }
            return;
        }
        TaskDriver driver = Handlers.driver(drivers, context, row, repository, transitions, false);
        if (driver == null) {
            return;
        }
        RemoteTaskRef ref = Handlers.ref(row);
        context.call(permit -> driver.cancel(ref, permit), (snapshot, error) -> settle(context, row, snapshot, error));
    }

    /**
     * A task that completed or failed although cancel was requested (the cancel arrived too late, or the server did
     * not stop it: cancellation is cooperative) keeps its real outcome; its status message says so, so the user who
     * cancelled is not left wondering.
     */
    static RemoteTaskSnapshot lostRace(TaskRecord row, RemoteTaskSnapshot snapshot) {
        if (snapshot.status() != TaskStatus.COMPLETED && snapshot.status() != TaskStatus.FAILED) {
            return snapshot;
        }
        String note = "cancel requested at " + row.control().cancelRequestedAt() + " came too late or was not"
                + " honoured: the task " + snapshot.status().wireName();
        return snapshot.withStatusMessage(Transitions.withNote(snapshot.statusMessage(), note));
    }

    private void settle(ClaimContext context, TaskRecord row, RemoteTaskSnapshot snapshot, Throwable error) {
        Instant completedAt = context.now();
        if (error == null) {
            // a nonterminal answer (cancellation in progress; with 2026-07-28 a cancel is only acknowledged) stays in
            // the cancel phase, due at the next poll time, not at once: a server that acknowledges and keeps working
            // is asked again at the poll pace until it reports an end
            Handlers.finishObserved(context, row, lostRace(row, snapshot), completedAt, results, transitions);
            return;
        }
        String message = Transitions.describe(error);
        RemoteFailure failure = Transitions.classify(error);
        if (failure == RemoteFailure.UNSUPPORTED || failure == RemoteFailure.AUTH_REQUIRED) {
            // retrying can never help, and the row must not stay in the cancel phase: it would never be polled again
            // (a refused authorization then ends the task auth_required at its next poll, unless someone logged in)
            String reason = (failure == RemoteFailure.UNSUPPORTED ? UNSUPPORTED : AUTH_REFUSED) + ": the cancel"
                    + " requested at " + row.control().cancelRequestedAt() + " was not sent; the task is tracked to its"
                    + " end (" + message + ")";
            context.finish(FencedWrite.ABANDON_CANCEL,
                    () -> repository.abandonCancel(context.claimed().claim(), reason, completedAt));
            return;
        }
        if (failure == RemoteFailure.TASK_LOST) {
            lost.settle(context, row, "the server no longer knows the task it was asked to cancel: " + message);
            return;
        }
        Handlers.finishFailure(context, repository,
                transitions.failure(row, "cancel failed: " + message, completedAt, false, false));
    }
}
