package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.WorkerRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a server's "task not found" means for a claim (runtime-behaviour.md section 8). A worker's session can
 * only vouch for tasks its own endpoint created: the task is {@code remote_task_lost} when this worker created it,
 * when its creator is unknown, or when the creator is known gone (deregistered, or not heartbeated within
 * {@code workerStaleAfter} by the store's clock, judged now, after the call). While the creator may be alive, the
 * claim is released to the creator's endpoint instead (a token-fenced release that changes nothing but the lease
 * and the endpoint owner), so only the creator controls the task while it lives. A shared row found so also shows
 * that the server binds tasks to sessions, which {@link SessionBindings} remembers.
 */
final class LostTaskVerdict {
    private static final Logger LOG = LoggerFactory.getLogger(LostTaskVerdict.class);

    private final WorkerId self;
    private final TaskClaims claims;
    private final WorkerRegistry workers;
    private final ResultWrites results;
    private final Transitions transitions;
    private final Duration workerStaleAfter;
    private final SessionBindings bindings;

    LostTaskVerdict(WorkerId self, TaskClaims claims, WorkerRegistry workers, ResultWrites results,
            Transitions transitions, Duration workerStaleAfter, SessionBindings bindings) {
        this.self = self;
        this.claims = claims;
        this.workers = workers;
        this.results = results;
        this.transitions = transitions;
        this.workerStaleAfter = workerStaleAfter;
        this.bindings = bindings;
    }

    /** Ends a claim whose remote call said the task is unknown; {@code message} explains it if the task is lost. */
    void settle(ClaimContext context, TaskRecord row, String message) {
        WorkerId creator = row.state().endpointOwner() != null ? row.state().endpointOwner() : row.state().createdBy();
        if (creator == null || creator.equals(self) || !mayBeAlive(creator)) {
            Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.REMOTE_TASK_LOST, message),
                    results, transitions);
            return;
        }
        String server = row.definition().serverName();
        if (row.state().endpointOwner() == null) {
            bindings.detected(server);
        }
        LOG.info("task {}: server '{}' does not show it to this worker's session, but worker {} that created it may"
                + " be alive; handing it back to that worker's endpoint", row.id(), server, creator);
        context.finish(FencedWrite.RELEASE_TO_ENDPOINT,
                () -> claims.releaseToEndpoint(context.claimed().claim(), creator));
    }

    /** A store that cannot answer cannot prove the creator gone: losing a live worker's task is not undoable. */
    private boolean mayBeAlive(WorkerId creator) {
        try {
            return workers.isWorkerAlive(creator, workerStaleAfter);
        } catch (RuntimeException e) {
            LOG.warn("could not tell whether worker {} is alive: {}", creator, e.toString());
            return true;
        }
    }
}
