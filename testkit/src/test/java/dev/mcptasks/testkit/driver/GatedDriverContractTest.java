package dev.mcptasks.testkit.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.contract.TaskDriverContract;

/**
 * The driver contract against {@link GatedDriver} with scripted answers (a working remote task that can be read,
 * cancelled and answered), so the fake the lifecycle tests use behaves as a real driver may.
 */
class GatedDriverContractTest extends TaskDriverContract {
    private GatedDriver gated;

    @Override
    protected TaskDriver createDriver() {
        gated = new GatedDriver("gated", new ManualClock());
        return gated;
    }

    @Override
    protected SubmitCall acceptedCall(TaskId id) {
        String remoteId = "r-" + id.value();
        gated.script(GatedDriver.Kind.SUBMIT, id, new SubmitResult(RemoteTaskSnapshot.of(remoteId, TaskStatus.WORKING),
                        "2025-11-25", false))
                .script(GatedDriver.Kind.STATUS, id, RemoteTaskSnapshot.of(remoteId, TaskStatus.WORKING))
                .script(GatedDriver.Kind.CANCEL, id, RemoteTaskSnapshot.of(remoteId, TaskStatus.CANCELLED))
                .script(GatedDriver.Kind.ANSWER, id, GatedDriver.ACKNOWLEDGED);
        return new SubmitCall(id, "alpha", "long_job", "{}", null);
    }

    @Override
    protected SubmitCall refusedCall(TaskId id) {
        gated.script(GatedDriver.Kind.SUBMIT, id, new RemoteCallException(RemoteFailure.REFUSED, "unknown tool"));
        return new SubmitCall(id, "alpha", "no_such_tool", "{}", null);
    }

    @Override
    protected RemoteTaskRef unknownTask(TaskId id) {
        gated.script(GatedDriver.Kind.STATUS, id, new RemoteCallException(RemoteFailure.TASK_LOST, "not found"));
        return new RemoteTaskRef(id, "alpha", "long_job", "r-unknown");
    }

    @Override
    protected void closeDriver() {
        gated.failAllOpen(new IllegalStateException("test over"));
    }
}
