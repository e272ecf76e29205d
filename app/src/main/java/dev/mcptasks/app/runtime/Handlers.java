package dev.mcptasks.app.runtime;

import dev.mcptasks.app.service.TaskDriverRegistry;
import dev.mcptasks.app.service.UnknownServerException;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;

/** Helpers shared by the phase handlers. */
final class Handlers {
    private Handlers() {}

    static RemoteTaskRef ref(TaskRecord row) {
        return new RemoteTaskRef(row.id(), row.definition().serverName(), row.definition().toolName(),
                row.state().remoteTaskId());
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
            context.finish(FencedWrite.RELEASE_FAILURE, () -> repository.releaseAfterFailure(
                    context.claimed().claim(),
                    transitions.failure(row, e.getMessage(), context.now(), false, tracksDegradation)));
            return null;
        }
    }
}
