package dev.mcptasks.core.runtime;

import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.UnknownServerException;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;

/** Helpers shared by the phase handlers. */
final class Handlers {
    private Handlers() {}

    /**
     * The remote task of a row, with the protocol version it was created under: the two generations are not
     * wire-compatible, so the driver speaks that generation for the task's whole life, whatever the server offers now.
     */
    static RemoteTaskRef ref(TaskRecord row) {
        return new RemoteTaskRef(row.id(), row.definition().serverName(), row.definition().toolName(),
                row.state().remoteTaskId(), row.state().protocolVersion(), row.state().endpointSession());
    }

    /**
     * The driver the row was created with; when it is no longer configured the claim ends in a failure release
     * with backoff (a configuration error must not spin the loop) and null is returned.
     */
    static TaskDriver driver(TaskDriverRegistry drivers, ClaimContext context, TaskRecord row,
            TaskRepository repository, Transitions transitions, boolean tracksDegradation) {
        try {
            return drivers.driverNamed(row.definition().driver());
        } catch (UnknownServerException e) {
            finishFailure(context, repository,
                    transitions.failure(row, e.getMessage(), context.now(), false, tracksDegradation));
            return null;
        }
    }

    /** Ends the claim with a failure release (backoff, counted). */
    static void finishFailure(ClaimContext context, TaskRepository repository, FailureWrite failure) {
        context.finish(FencedWrite.RELEASE_FAILURE,
                () -> repository.releaseAfterFailure(context.claimed().claim(), failure));
    }

    /** Ends the claim with a terminal outcome decided locally (lost, malformed, refused, unknown submission). */
    static void finishTerminal(ClaimContext context, TaskRecord row, StoredSnapshot snapshot, ResultWrites results,
            Transitions transitions) {
        // built before the write: a failure to build it is the handler's, never retried as a store failure
        OutcomeWrite write = transitions.terminal(row, snapshot);
        context.finish(FencedWrite.APPLY_OUTCOME, () -> results.applyOutcome(context.claimed().claim(), write));
    }

    /**
     * Ends the claim with {@code failed} / {@code auth_required}: the server refused for want of credentials that
     * mcp-tasks cannot obtain without a person, so retrying could only loop. {@code reason} says what to do.
     */
    static void finishAuthRequired(ClaimContext context, TaskRecord row, String reason, ResultWrites results,
            Transitions transitions) {
        finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.AUTH_REQUIRED, reason), results, transitions);
    }

    /** Ends the claim by storing what the server reported, scheduled from the call's completion time. */
    static void finishObserved(ClaimContext context, TaskRecord row, RemoteTaskSnapshot snapshot,
            Instant completedAt, ResultWrites results, Transitions transitions) {
        OutcomeWrite write = transitions.observed(row, snapshot, completedAt);
        context.finish(FencedWrite.APPLY_OUTCOME, () -> results.applyOutcome(context.claimed().claim(), write));
    }
}
